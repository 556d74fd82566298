"use client";

export default function GlobalError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    // This replaces the root layout (no stylesheet, no theme provider): the system's light or dark canvas.
    <html lang="en" style={{ colorScheme: "light dark" }}>
      <body style={{ fontFamily: "system-ui, sans-serif", padding: "3rem", color: "CanvasText", background: "Canvas" }}>
        <h1>The console could not load</h1>
        <p>Something went wrong on our side. Reference: {error.digest ?? "n/a"}.</p>
        <button type="button" onClick={reset}>
          Try again
        </button>
      </body>
    </html>
  );
}
