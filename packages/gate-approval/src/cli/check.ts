/** One line of the doctor's report: ok, a problem, or a warning (ok, but worth knowing). */
export interface Check {
  ok: boolean;
  warn?: boolean; // ok, but the user should know: printed `warn`, never a failure
  text: string;
}
