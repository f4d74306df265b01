/**
 * Bounds on list filters that take many values (a repeated parameter such as `tag`, or a comma
 * list such as `type` or `hosts`). The real API publishes none; without one, each value becomes one
 * more condition, and some hundreds of them exceed what SQLite evaluates in one statement (its
 * expression tree depth), which was a 500. The bound is far above any real query: a record holds
 * a few tags, a type list names at most the 21 record types. docs/local-api.md lists it.
 */
import { ApiError } from './envelope.js';

/** The most values one list filter (or one family of them, such as every `tag*` parameter) takes. */
export const MAX_FILTER_VALUES = 100;

/**
 * Refuses more than MAX_FILTER_VALUES values, naming the parameter (`param` may name a family:
 * "tag, tag.present, ... together") and the limit.
 */
export function checkFilterValues(param: string, count: number): void {
  if (count > MAX_FILTER_VALUES) {
    throw ApiError.badRequest(
      `The query parameter ${param} has ${count} values; at most ${MAX_FILTER_VALUES} are accepted.`,
    );
  }
}
