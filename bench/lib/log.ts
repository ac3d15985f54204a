/** Progress lines, told apart from the result table by their prefix. */
export const log = (message: string) => console.log(`[bench] ${message}`);
