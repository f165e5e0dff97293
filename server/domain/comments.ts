// How comments nest. A plain constant: the comment service enforces it, the browser hides "Reply" at it.

/** 0 is a top-level comment; a reply to a comment at this depth is refused. */
export const MAX_COMMENT_DEPTH = 3;
