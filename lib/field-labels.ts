/** Client-safe helpers that turn the service's field names and values into words for the UI. */

/** `numberOfAttemptsAllowed` → "Number of attempts allowed"; for fields the console has no label for. */
export function humanizeFieldName(name: string): string {
  const words = name
    .replace(/[_-]+/g, " ")
    .replace(/([a-z\d])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export function formatYesNo(value: boolean): "Yes" | "No" {
  return value ? "Yes" : "No";
}
