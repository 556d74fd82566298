// Stands in for the "server-only" guard outside Next's bundler (vitest); Next still enforces it in the app.
export {};
