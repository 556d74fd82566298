"use client";

export default function GlobalError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <html lang="en">
      <body style={{ fontFamily: "system-ui, sans-serif", padding: "3rem", color: "#0f172a" }}>
        <h1>The console could not load</h1>
        <p>Something went wrong on our side. Reference: {error.digest ?? "n/a"}.</p>
        <button type="button" onClick={reset}>Try again</button>
      </body>
    </html>
  );
}
