/** Names as an SQL list literal, `('a', 'b')`, for statements whose sets come from a domain constant. */
export function sqlList(names: readonly string[]): string {
  if (!names.length || names.some((name) => !/^[a-z0-9._-]+$/i.test(name))) throw new Error(`not a list of plain names: ${names.join(', ')}`);
  return `(${names.map((name) => `'${name}'`).join(', ')})`;
}
