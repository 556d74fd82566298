/** Runs once when a console server starts: migrations, the bootstrap admin, background jobs. */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { startUp } = await import("./lib/startup");
  await startUp();
}
