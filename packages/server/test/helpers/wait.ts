/** A door a test holds shut: `held` resolves once `open()` is called (calling it again does nothing). */
export function gate(): { held: Promise<void>; open(): void } {
  let open!: () => void;
  const held = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { held, open };
}

/** Bounded poll, for effects that land a moment after the call that caused them (a timer, a socket close event). */
export async function until(
  check: () => boolean | Promise<boolean>,
  { timeoutMs = 5000, everyMs = 20, what = 'condition' } = {},
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what} not met in time`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
