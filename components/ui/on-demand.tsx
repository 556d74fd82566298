"use client";

import { lazy, type ComponentType } from "react";

/**
 * A component whose code loads when first wanted (`preload` on its trigger's hover or focus), then renders at once:
 * React.lazy alone suspends a moment even on loaded code, flashing the loading state after a preload. Render it in
 * a Suspense whose fallback says it is loading.
 */
export function onDemand<P extends object>(load: () => Promise<ComponentType<P>>) {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<ComponentType<P>> | undefined;
  const start = () => {
    loading ??= load().then(
      (component) => (loaded = component),
      (error: unknown) => {
        // A failed load (offline) is tried again at the next preload.
        loading = undefined;
        throw error;
      },
    );
    return loading;
  };
  const Lazy = lazy(() => start().then((component) => ({ default: component })));
  function OnDemand(props: P) {
    const Component = loaded ?? Lazy;
    return <Component {...props} />;
  }
  /** For event handlers: starts the load, and leaves a failure to the render that needs the code. */
  const preload = () => {
    start().catch(() => {});
  };
  return { Component: OnDemand, preload };
}
