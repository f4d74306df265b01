/**
 * Live reads started while the desired-state files are still being checked, so that the transfer
 * (and the server's work) overlaps the local work of validation.
 *
 * The promise is "no write before the file is valid", not "no request": as soon as the files are
 * parsed, the owners they name (after --zone/--account/--shard) are read on a remote target through
 * a requester that sends GET and nothing else. Each answer is kept, keyed by its request; the real
 * read, made once the files are valid, takes a kept answer for the very same request instead of
 * sending it again, and sends anything else itself. When the files have errors, the early answers
 * are dropped unseen: the command reports the errors and nothing more (their --verbose request
 * lines are held until the files are valid, and dropped with the answers).
 *
 * Early reads run only where they cannot change anything or print anything of their own: on a
 * target the command line or the environment names (never the embedded default, which would create
 * its store beside the file), for files that do not choose a target themselves, and only for owners
 * whose name is already a plain string (a `${var:...}` name is resolved by the checks first).
 */
import type { ApiResponse, Auth, RequestOptions } from '../../client/types.js';
import type { DesiredState } from '../../config/model.js';
import { readLive } from '../../core/read.js';
import type { RuntimeKind } from '../../core/plan.js';
import type { Requester } from '../../core/runtime.js';
import { selectOwners, type Selection } from '../../core/selection.js';

type Answer = Promise<ApiResponse<unknown>>;

/** The key of a request: the same method, path and query give the same key, whatever the order. */
function requestKey(path: string, options?: RequestOptions): string {
  const query = options?.query ?? {};
  const pairs = Object.keys(query)
    .sort()
    .map((k) => [k, query[k]]);
  return `${path}?${JSON.stringify(pairs)}`;
}

export class EarlyReads {
  private readonly answers = new Map<string, Answer[]>();
  /** how many early answers have come back */
  private answered = 0;
  /** whether a request went out after an answer came back (the reads are past their first wave) */
  private secondWave = false;
  private finished = false;
  /** the early read as a whole; settles once every early request has its answer */
  private readonly done: Promise<void>;

  private constructor(
    private readonly client: Requester,
    /** the owners read, as ownersKey gives them */
    private readonly owners: string,
    tentative: DesiredState,
    kinds: RuntimeKind[],
    auth: Auth | undefined,
    concurrency: number | undefined,
  ) {
    const sendsGetOnly: Requester = {
      request: <T>(method: string, path: string, options?: RequestOptions) => {
        // the promise itself: nothing but a read goes out before the files are valid
        if (method !== 'GET') return Promise.reject(new Error(`early reads send GET only, not ${method}`));
        if (this.answered > 0) this.secondWave = true;
        const answer = this.client.request<unknown>('GET', path, options);
        // taken (and its failure seen) by the real read, or dropped
        answer.then(
          () => this.answered++,
          () => this.answered++,
        );
        const key = requestKey(path, options);
        this.answers.set(key, [...(this.answers.get(key) ?? []), answer]);
        return answer as Promise<ApiResponse<T>>;
      },
    };
    // a failure here (an unknown zone, a refused token) is the real read's to report, with its
    // own request; the early one only ends
    // as many owners at once as the real read: it then follows these reads instead of overtaking
    // them and sending requests of its own that these send again
    this.done = readLive(tentative, kinds, sendsGetOnly, { auth, concurrency }).then(
      () => void (this.finished = true),
      () => void (this.finished = true),
    );
  }

  /**
   * Gives the reads a head start of at most `maxMs`: until the requests that depend on a first
   * answer (a zone's records need its id, which the zone lookup brings) are on their way, so the
   * server prepares the large answers while the files are checked. The checks that follow block
   * the event loop; without this, a lookup's answer would wait for them.
   */
  async headStart(maxMs: number): Promise<void> {
    const until = performance.now() + maxMs;
    while (!this.finished && !this.secondWave && performance.now() < until)
      await new Promise((resolve) => setTimeout(resolve, 1));
    // one more turn: the request just made is written out
    await new Promise((resolve) => setImmediate(resolve));
  }

  /**
   * Starts the early reads of the parsed files' owners, or returns undefined when there is nothing
   * safe to read early (see the file comment): `values` are the files' parsed documents, unchecked.
   */
  static start(
    values: unknown[],
    selection: Selection,
    kinds: RuntimeKind[],
    client: Requester,
    auth: Auth | undefined,
    concurrency?: number,
  ): EarlyReads | undefined {
    const tentative = tentativeState(values, kinds);
    if (!tentative) return undefined;
    let selected: DesiredState;
    try {
      selected = selectOwners(tentative, selection);
    } catch {
      return undefined; // a selection that matches nothing is reported after the checks
    }
    if (selected.zones.length === 0 && selected.accounts.length === 0) return undefined;
    return new EarlyReads(client, ownersKey(selected), selected, kinds, auth, concurrency);
  }

  /**
   * Whether these reads are the ones the parsed files' documents start: the same owners with the
   * same values the readers see (reads started from the file's text, ./early-scan.ts, are used
   * only then).
   */
  covers(values: unknown[], selection: Selection, kinds: RuntimeKind[]): boolean {
    const tentative = tentativeState(values, kinds);
    if (!tentative) return false;
    try {
      return ownersKey(selectOwners(tentative, selection)) === this.owners;
    } catch {
      return false;
    }
  }

  /**
   * The requester of the real read: a GET that was sent early is answered from what came back
   * (each early answer serves one request); every other request goes to the client.
   */
  serving(): Requester {
    return {
      request: <T>(method: string, path: string, options?: RequestOptions) => {
        if (method === 'GET') {
          const kept = this.answers.get(requestKey(path, options));
          const answer = kept?.shift();
          if (answer) return answer as Promise<ApiResponse<T>>;
        }
        return this.client.request<T>(method, path, options);
      },
    };
  }

  /** Lets the early reads end (their answers are dropped), for a run whose files have errors. */
  async settle(): Promise<void> {
    await this.done;
  }
}

/** The selected owners with every value the readers are given, as one comparable string. */
function ownersKey(state: DesiredState): string {
  return JSON.stringify([state.zones, state.accounts]);
}

/**
 * The owners of the parsed documents, shaped as the reader takes them: a zone by its `name`, an
 * account by its `id`, with the entry's plain values, and under each kind key the file sets an
 * empty value: a kind then reads the least it reads for that key and prepares no unchecked data;
 * what more the checked value manages (Page Shield's policies), the real read sends itself.
 * Undefined when a file is not a mapping with lists, or names no owner.
 */
function tentativeState(values: unknown[], kinds: RuntimeKind[]): DesiredState | undefined {
  const keys = new Set(kinds.map((k) => k.def.key).filter((k) => k !== ''));
  const zones: DesiredState['zones'] = [];
  const accounts: DesiredState['accounts'] = [];
  // the entry's own scalars as written (the readers may use them: the zone list is filtered by the
  // one account all zones name), each kind's value as an empty one
  const entryOf = (raw: Record<string, unknown>) => {
    const entry: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(raw)) {
      if (keys.has(k)) entry[k] = v === undefined ? undefined : {};
      else if (
        typeof v === 'boolean' ||
        typeof v === 'number' ||
        (typeof v === 'string' && !v.includes('${'))
      )
        entry[k] = v;
    }
    return entry;
  };
  const plainName = (v: unknown): v is string => typeof v === 'string' && v !== '' && !v.includes('${');
  for (const value of values) {
    if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
    const doc = value as Record<string, unknown>;
    // a file that chooses its own target is read once the target is known from the checked file
    if ('target' in doc) return undefined;
    for (const [list, out, id] of [
      [doc.zones, zones, 'name'],
      [doc.accounts, accounts, 'id'],
    ] as const) {
      if (list === undefined) continue;
      if (!Array.isArray(list)) return undefined;
      for (const raw of list) {
        if (!raw || typeof raw !== 'object') continue;
        const name = (raw as Record<string, unknown>)[id];
        if (!plainName(name)) continue;
        (out as Record<string, unknown>[]).push({ ...entryOf(raw as Record<string, unknown>), [id]: name });
      }
    }
  }
  if (zones.length === 0 && accounts.length === 0) return undefined;
  return {
    version: 1,
    source: { files: [], sha256: '' },
    accounts,
    zones,
    locations: new Map(),
  };
}
