/**
 * One problem found in a config: where (a JSON pointer, "" for the value itself) and what is
 * wrong. Every package that checks a config reports its problems in this shape.
 */
export interface ConfigIssue {
  readonly path: string;
  readonly message: string;
}
