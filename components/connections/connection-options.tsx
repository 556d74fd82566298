/** A `<select>`'s options, one per connection by name: the filter forms' connection choice. */
export function ConnectionOptions({ connections }: { connections: ReadonlyArray<{ id: string; name: string }> }) {
  return connections.map((c) => (
    <option key={c.id} value={c.id}>
      {c.name}
    </option>
  ));
}
