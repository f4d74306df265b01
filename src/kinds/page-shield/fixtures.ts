/**
 * A zone's Page Shield in a fixtures export (`zones[].page_shield`): the settings, the CSP policies
 * with their server ids (updates and deletes are keyed by policy id), and the detected scripts,
 * connections and cookies with their ids and every field the list answered.
 *
 * The plan's read fetches the settings, the policies when the file names `policies`, and the
 * scripts only for a ceiling; the detected items of every status come from `read` below for
 * `export --as fixtures` only. A rehearsal's sandbox gets what the plan read.
 */
import type { KindFixtures } from '../../core/kind.js';
import { listAll } from '../../core/list.js';
import { UserError } from '../../errors.js';
import type { PageShieldLive } from './plan.js';
import { PAGE_SHIELD_PER_PAGE } from './runtime.js';

type Item = Record<string, unknown>;

interface PageShieldCopy extends PageShieldLive {
  /** connections or cookies undefined: the zone's plan does not offer that list */
  detected?: { scripts: Item[]; connections?: Item[]; cookies?: Item[] };
}

/** Every status, cdn-cgi paths and duplicates included: the lists' defaults hide some items. */
const EVERY_STATUS = 'active,infrequent,inactive';

export const pageShieldFixtures: KindFixtures = {
  async read(live, ctx) {
    // planning and applying never look at detected items beyond the ceiling's scripts, which the
    // plan's read already holds when the file sets a ceiling: a rehearsal lists nothing more
    if (ctx.for === 'sandbox') return live;
    const base = `/zones/${ctx.owner.id}/page_shield`;
    const perPage = PAGE_SHIELD_PER_PAGE;
    const [scripts, connections, cookies] = await Promise.all([
      listAll<Item>(ctx.client, `${base}/scripts`, {
        query: { status: EVERY_STATUS, exclude_cdn_cgi: 'false', exclude_duplicates: 'false' },
        perPage,
      }),
      notOnThisPlan(
        listAll<Item>(ctx.client, `${base}/connections`, {
          query: { status: EVERY_STATUS, exclude_cdn_cgi: 'false' },
          perPage,
        }),
      ),
      // cookies have no status filter: every one is listed
      notOnThisPlan(listAll<Item>(ctx.client, `${base}/cookies`, { perPage })),
    ]);
    return {
      ...(live as PageShieldLive),
      detected: { scripts, connections, cookies },
    } satisfies PageShieldCopy;
  },

  entry(raw) {
    const live = raw as PageShieldCopy;
    const section: Record<string, unknown> = { enabled: live.enabled, ...live.reporting };
    // a plan's read leaves out the policies when the file does not manage them: the copy then
    // holds none, which no plan of that file looks at
    if (live.policies)
      section.policies = live.policies.map((p) => ({
        id: p.id,
        description: p.description,
        action: p.action,
        expression: p.expression,
        value: p.value,
        enabled: p.enabled,
      }));
    // without the extra read (a rehearsal), the ceiling's scripts are what is known and needed
    section.scripts = (live.detected?.scripts ?? live.scripts ?? []).map(withoutUndefined);
    if (live.detected?.connections) section.connections = live.detected.connections.map(withoutUndefined);
    if (live.detected?.cookies) section.cookies = live.detected.cookies.map(withoutUndefined);
    return { fields: { page_shield: section } };
  },
};

/**
 * Connection and cookie monitoring come with some plans only: a list the API refuses (403, or 404
 * where it is not offered) is left out of the copy rather than failing the export.
 */
async function notOnThisPlan(list: Promise<Item[]>): Promise<Item[] | undefined> {
  try {
    return await list;
  } catch (err) {
    const status = (err as { status?: unknown }).status;
    if (err instanceof UserError && (status === 403 || status === 404)) return undefined;
    throw err;
  }
}

/** An item as listed, without absent fields (the fixtures loader fills its own defaults). */
function withoutUndefined(item: object): Item {
  const out: Item = {};
  for (const [k, v] of Object.entries(item)) if (v !== undefined && v !== null) out[k] = v;
  return out;
}
