/** A JSON Schema (2020-12) document or fragment, as plain data. */
export type JsonSchema = { [key: string]: unknown };
