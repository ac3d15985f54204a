/** The node flags of `npm start` (root package.json); see start-flags.mjs. */
export function startFlags(root: string): string[];
