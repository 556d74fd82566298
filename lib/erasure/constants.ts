/** Client-safe vocabulary of an end user's erasure. */

/** What no erasure can undo, said wherever one is asked for. */
export const DELIVERED_FORWARDS_STAY =
  "Forwards already delivered cannot be recalled: each destination keeps what it received, so ask its owner to erase it there.";

/** What replaces the user's id, email and phone number in what stays (audit records, replays' filters). */
export const ERASED = "[erased]";
