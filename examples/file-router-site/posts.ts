/**
 * The site's content: an in-memory list of blog posts. A real site would read a database or
 * Markdown files; route files only call these functions.
 */
export interface Post {
  slug: string;
  title: string;
  summary: string;
  /** ISO date, e.g. `2026-11-02`. */
  published: string;
  /** Paragraphs of plain text: templates escape them, so `<` stays a character. */
  body: string[];
}

const posts: Post[] = [
  {
    slug: 'hello-tern',
    title: 'Hello, Tern',
    summary: 'A site whose pages are folders: every route.ts is a route.',
    published: '2026-11-02',
    body: [
      'This site is served by @tern/file-router. The folder routes/blog/{slug:slug} holds one route.ts, and it serves every post.',
      'Pages are nunjucks templates rendered by render(), the JSON API lives under /api, and unknown pages get a friendly 404.',
    ],
  },
  {
    slug: 'templates-and-escaping',
    title: 'Templates & <escaping>',
    summary: 'Why <script> in a title stays text.',
    published: '2026-11-09',
    body: [
      'Every value a template prints is HTML-escaped, so this post can safely say <script>alert("pwned")</script> and you read it instead of running it.',
      'Use the safe filter only for HTML you wrote yourself.',
    ],
  },
];

/** Newest first. */
export function listPosts(): Post[] {
  return [...posts].sort((a, b) => b.published.localeCompare(a.published));
}

export function findPost(slug: string): Post | undefined {
  return posts.find((post) => post.slug === slug);
}

/** Adds a post; false when the slug is taken. */
export function addPost(post: Post): boolean {
  if (findPost(post.slug)) return false;
  posts.push(post);
  return true;
}
