/**
 * The process's one value for `key`, made by `init` on first use and kept on globalThis: Next bundles a module
 * into several server layers (routes, actions, start-up), each with its own copy, so module state is not shared.
 */
export function processSingleton<T>(key: string, init: () => T): T {
  const holder = globalThis as unknown as Record<symbol, { value: T } | undefined>;
  const slot = (holder[processSingletonKey(key)] ??= { value: init() });
  return slot.value;
}

/** Where `key`'s value lives on globalThis: one scheme for every singleton, `tenant-console.<slice>.<what>`. */
export const processSingletonKey = (key: string) => Symbol.for(`tenant-console.${key}`);

/** Forgets `key`'s value, so the next `processSingleton` makes it anew (tests). */
export function forgetProcessSingleton(key: string): void {
  Reflect.deleteProperty(globalThis, processSingletonKey(key));
}
