// Comments threaded by parent_id: replies under their parent (oldest first), threads newest first.
import type { Comment } from "@/lib/markets/schemas";
import { formatDateTime, formatRelative } from "@/lib/ui/format";
import { Avatar } from "./avatar";

export function threadComments(comments: Comment[]) {
  const ids = new Set(comments.map((c) => c.id));
  const children = new Map<string, Comment[]>();
  const roots: Comment[] = [];
  for (const c of comments) {
    // A reply whose parent is outside the latest 50 still shows, as its own thread.
    if (c.parent_id && ids.has(c.parent_id)) children.set(c.parent_id, [...(children.get(c.parent_id) ?? []), c]);
    else roots.push(c);
  }
  const byTime = (a: Comment, b: Comment) => a.created_at.localeCompare(b.created_at);
  for (const list of children.values()) list.sort(byTime);
  roots.sort((a, b) => byTime(b, a));
  return { roots, children };
}

function CommentItem({ c, repliesOf }: { c: Comment; repliesOf: Map<string, Comment[]> }) {
  const replies = repliesOf.get(c.id) ?? [];
  return (
    <li data-testid="comment" data-comment-id={c.id}>
      <article className="flex gap-3">
        <Avatar src={c.user.profile_image_url} name={c.user.username} size={32} />
        <div className="min-w-0 flex-1">
          <header className="flex flex-wrap items-baseline gap-x-2 text-sm">
            <span className="font-semibold">{c.user.username}</span>
            <time dateTime={c.created_at} title={formatDateTime(c.created_at)} className="text-xs text-zinc-600 dark:text-zinc-400" suppressHydrationWarning>
              {formatRelative(c.created_at)}
            </time>
          </header>
          <p className="mt-0.5 whitespace-pre-line break-words text-sm text-zinc-800 dark:text-zinc-200">{c.content}</p>
          {c.likes_count > 0 && (
            <p className="mt-1 text-xs text-zinc-600 dark:text-zinc-400">
              ♥ {c.likes_count} like{c.likes_count > 1 ? "s" : ""}
            </p>
          )}
        </div>
      </article>
      {replies.length > 0 && (
        <ul aria-label={`Replies to ${c.user.username}`} className="mt-3 ml-4 flex flex-col gap-3 border-l-2 border-zinc-200 pl-4 dark:border-zinc-800">
          {replies.map((r) => (
            <CommentItem key={r.id} c={r} repliesOf={repliesOf} />
          ))}
        </ul>
      )}
    </li>
  );
}

export function Comments({ comments }: { comments: Comment[] }) {
  const { roots, children } = threadComments(comments);
  return (
    <section aria-labelledby="comments-heading">
      <h2 id="comments-heading" className="mb-3 font-semibold">
        Comments <span className="font-normal text-zinc-600 dark:text-zinc-400">({comments.length})</span>
      </h2>
      {roots.length === 0 ? (
        <p className="rounded-xl border border-dashed border-zinc-300 px-4 py-6 text-center text-sm text-zinc-600 dark:border-zinc-700 dark:text-zinc-400">
          No comments yet.
        </p>
      ) : (
        <ul className="flex flex-col gap-5" data-testid="comments">
          {roots.map((c) => (
            <CommentItem key={c.id} c={c} repliesOf={children} />
          ))}
        </ul>
      )}
    </section>
  );
}
