/**
 * The kit's one shape for something that can fail as a value: the value, or why not (`reason`, a
 * literal to switch on) with a one-line `message` for a person. Discriminated on `ok`.
 */
export type Outcome<T, R extends string = string> =
  | { ok: true; value: T }
  | { ok: false; reason: R; message: string };
