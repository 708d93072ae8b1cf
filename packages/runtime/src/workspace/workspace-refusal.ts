/**
 * A workspace path refused on disk (a link out or to nothing, a hard-linked or special file): a
 * message naming the workspace path and the cause, which a listing skips rather than fails on.
 */
export class WorkspaceRefusal extends Error {
  override readonly name = 'WorkspaceRefusal';
}
