/**
 * Conduit's data: every query the API runs, in SQL that PGlite and PostgreSQL both speak.
 * Handlers call these methods and get rows shaped like RealWorld's JSON; the response models
 * (dto.ts) then decide what leaves the server.
 */
import { randomBytes } from 'node:crypto';
import { HTTPException } from '@tern/core';
import { DUMMY_PASSWORD_HASH, hashPassword, verifyPassword } from './auth';
import { uniqueViolation, type Database, type Queryable } from './database';
import type { NewArticle, NewUser, UpdateArticle, UpdateUser } from './dto';

/** A user as the database holds it (`password_hash` stays here: no response model declares it). */
export interface Account {
  id: number;
  username: string;
  email: string;
  bio: string | null;
  image: string | null;
  password_hash: string;
}

export interface ProfileView {
  username: string;
  bio: string | null;
  image: string | null;
  following: boolean;
}

/** An article as a list shows it: RealWorld's lists leave out `body` (since August 2024). */
export interface ArticlePreviewView {
  slug: string;
  title: string;
  description: string;
  tagList: string[];
  createdAt: Date;
  updatedAt: Date;
  favorited: boolean;
  favoritesCount: number;
  author: ProfileView;
}

/** One article, whole. */
export interface ArticleView extends ArticlePreviewView {
  body: string;
}

export interface CommentView {
  id: number;
  body: string;
  createdAt: Date;
  updatedAt: Date;
  author: ProfileView;
}

/** Filters of `GET /articles`, all optional. */
export interface ArticleFilter {
  tag?: string;
  author?: string;
  favorited?: string;
  /** Only authors this user follows (the feed). */
  followedBy?: number;
}

export interface Page {
  limit: number;
  offset: number;
}

/** RealWorld's 422: `{"errors":{"body":[message]}}` once the exception handler renders it. */
export function unprocessable(message: string): HTTPException {
  return new HTTPException(422, message);
}

const ACCOUNT_COLUMNS = 'id, username, email, bio, image, password_hash';

/**
 * Every article answer (one, a list, the feed, after a write) carries its tags sorted by code point
 * (`COLLATE "C"`, the same on every server's locale), as RealWorld's examples show them
 * (`["dragons", "training"]`) and its Postman collection checks; the order they were sent in is
 * not kept. `article_tags.position` is still written by the first migration's schema and no
 * longer read.
 */
const articleSelect = (withBody: boolean) => `
  SELECT a.id, a.slug, a.title, a.description,${withBody ? ' a.body,' : ''} a.created_at, a.updated_at,
         u.username, u.bio, u.image,
         COALESCE((SELECT array_agg(t.tag ORDER BY t.tag COLLATE "C") FROM article_tags t WHERE t.article_id = a.id), '{}') AS tag_list,
         (SELECT count(*)::int FROM favorites f WHERE f.article_id = a.id) AS favorites_count,
         EXISTS (SELECT 1 FROM favorites f WHERE f.article_id = a.id AND f.user_id = $1::int) AS favorited,
         EXISTS (SELECT 1 FROM follows fo WHERE fo.followed_id = a.author_id AND fo.follower_id = $1::int) AS following
    FROM articles a JOIN users u ON u.id = a.author_id`;

const ARTICLE_SELECT = articleSelect(true);
/** The lists' columns: the same without `body`, which a list neither sends nor reads. */
const ARTICLE_PREVIEW_SELECT = articleSelect(false);

/** The WHERE clause of the article lists; parameters $2–$5 are the filter's fields. */
const ARTICLE_FILTER = `
   WHERE ($2::text IS NULL OR EXISTS (SELECT 1 FROM article_tags t WHERE t.article_id = a.id AND t.tag = $2::text))
     AND ($3::text IS NULL OR u.username = $3::text)
     AND ($4::text IS NULL OR EXISTS (SELECT 1 FROM favorites f JOIN users fu ON fu.id = f.user_id
                                       WHERE f.article_id = a.id AND fu.username = $4::text))
     AND ($5::int IS NULL OR EXISTS (SELECT 1 FROM follows fo WHERE fo.followed_id = a.author_id AND fo.follower_id = $5::int))`;

interface ArticleRow {
  id: number;
  slug: string;
  title: string;
  description: string;
  body?: string;
  created_at: Date;
  updated_at: Date;
  username: string;
  bio: string | null;
  image: string | null;
  tag_list: string[];
  favorites_count: number;
  favorited: boolean;
  following: boolean;
}

function articleView(row: ArticleRow): ArticleView {
  return { ...articlePreviewView(row), body: row.body ?? '' };
}

function articlePreviewView(row: ArticleRow): ArticlePreviewView {
  return {
    slug: row.slug,
    title: row.title,
    description: row.description,
    tagList: row.tag_list,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    favorited: row.favorited,
    favoritesCount: row.favorites_count,
    author: { username: row.username, bio: row.bio, image: row.image, following: row.following },
  };
}

/** `How to Train Your Dragon` → `how-to-train-your-dragon-k3x9q2`: readable, and unique. */
export function slugify(title: string): string {
  const words = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/, '');
  return `${words || 'article'}-${randomBytes(4).readUInt32BE(0).toString(36)}`;
}

export class Conduit {
  constructor(private readonly db: Database) {}

  // ---- users ----

  async register(input: NewUser): Promise<Account> {
    const passwordHash = await hashPassword(input.password);
    try {
      const [account] = await this.db.query<Account>(
        `INSERT INTO users (username, email, password_hash) VALUES ($1, $2, $3) RETURNING ${ACCOUNT_COLUMNS}`,
        [input.username, input.email, passwordHash],
      );
      return account;
    } catch (err) {
      throw takenField(err) ?? err;
    }
  }

  /**
   * The account these credentials open, or null (the caller answers without saying which was
   * wrong). An unknown email still costs one scrypt, against a dummy hash, so it is refused as
   * slowly as a wrong password.
   */
  async login(email: string, password: string): Promise<Account | null> {
    const [account] = await this.db.query<Account>(`SELECT ${ACCOUNT_COLUMNS} FROM users WHERE email = $1`, [email]);
    const matches = await verifyPassword(password, account?.password_hash ?? DUMMY_PASSWORD_HASH);
    return account && matches ? account : null;
  }

  async accountById(id: number): Promise<Account | null> {
    const [account] = await this.db.query<Account>(`SELECT ${ACCOUNT_COLUMNS} FROM users WHERE id = $1`, [id]);
    return account ?? null;
  }

  async updateAccount(id: number, changes: UpdateUser): Promise<Account> {
    const passwordHash = changes.password === undefined ? undefined : await hashPassword(changes.password);
    try {
      // A field left out keeps its value: `$n IS NULL` for the NOT NULL columns, an explicit
      // "was it sent" flag for bio and image, which may be set to null.
      const [account] = await this.db.query<Account>(
        `UPDATE users SET
           email = COALESCE($2, email),
           username = COALESCE($3, username),
           password_hash = COALESCE($4, password_hash),
           bio = CASE WHEN $5::boolean THEN $6 ELSE bio END,
           image = CASE WHEN $7::boolean THEN $8 ELSE image END
         WHERE id = $1 RETURNING ${ACCOUNT_COLUMNS}`,
        [id, changes.email ?? null, changes.username ?? null, passwordHash ?? null, changes.bio !== undefined, changes.bio ?? null, changes.image !== undefined, changes.image ?? null],
      );
      if (!account) throw new HTTPException(401, 'Your account no longer exists.');
      return account;
    } catch (err) {
      throw takenField(err) ?? err;
    }
  }

  // ---- profiles ----

  async profile(username: string, viewerId: number | undefined): Promise<ProfileView> {
    const [row] = await this.db.query<ProfileView>(
      `SELECT u.username, u.bio, u.image,
              EXISTS (SELECT 1 FROM follows f WHERE f.followed_id = u.id AND f.follower_id = $2::int) AS following
         FROM users u WHERE u.username = $1`,
      [username, viewerId ?? null],
    );
    if (!row) throw new HTTPException(404, `No user named ${username}.`);
    return row;
  }

  async follow(followerId: number, username: string, following: boolean): Promise<ProfileView> {
    const target = await this.userId(username);
    if (target === followerId) throw unprocessable('You cannot follow yourself.');
    await this.db.query(
      following
        ? 'INSERT INTO follows (follower_id, followed_id) VALUES ($1, $2) ON CONFLICT DO NOTHING'
        : 'DELETE FROM follows WHERE follower_id = $1 AND followed_id = $2',
      [followerId, target],
    );
    return this.profile(username, followerId);
  }

  // ---- articles ----

  async listArticles(filter: ArticleFilter, page: Page, viewerId: number | undefined): Promise<{ articles: ArticlePreviewView[]; articlesCount: number }> {
    const params = [viewerId ?? null, filter.tag ?? null, filter.author ?? null, filter.favorited ?? null, filter.followedBy ?? null];
    const [rows, [count]] = await Promise.all([
      this.db.query<ArticleRow>(`${ARTICLE_PREVIEW_SELECT} ${ARTICLE_FILTER} ORDER BY a.created_at DESC, a.id DESC LIMIT $6 OFFSET $7`, [...params, page.limit, page.offset]),
      this.db.query<{ total: number }>(
        `SELECT count(*)::int AS total FROM articles a JOIN users u ON u.id = a.author_id ${ARTICLE_FILTER.replace(/\$(\d)/g, (_, n: string) => `$${Number(n) - 1}`)}`,
        params.slice(1),
      ),
    ]);
    return { articles: rows.map(articlePreviewView), articlesCount: count.total };
  }

  async article(slug: string, viewerId: number | undefined, db: Queryable = this.db): Promise<ArticleView> {
    const [row] = await db.query<ArticleRow>(`${ARTICLE_SELECT} WHERE a.slug = $2`, [viewerId ?? null, slug]);
    if (!row) throw new HTTPException(404, `No article ${slug}.`);
    return articleView(row);
  }

  /** The article and its tags are written together or not at all. */
  async createArticle(authorId: number, input: NewArticle): Promise<ArticleView> {
    return this.db.transaction(async (tx) => {
      const [{ id, slug }] = await tx.query<{ id: number; slug: string }>(
        'INSERT INTO articles (slug, title, description, body, author_id) VALUES ($1, $2, $3, $4, $5) RETURNING id, slug',
        [slugify(input.title), input.title, input.description, input.body, authorId],
      );
      const tags = [...new Set(input.tagList ?? [])];
      if (tags.length > 0) {
        await tx.query('INSERT INTO article_tags (article_id, tag, position) SELECT $1, tag, ord FROM unnest($2::text[]) WITH ORDINALITY AS t(tag, ord)', [id, tags]);
      }
      return this.article(slug, authorId, tx);
    });
  }

  async updateArticle(slug: string, userId: number, changes: UpdateArticle): Promise<ArticleView> {
    await this.ownArticle(slug, userId);
    const newSlug = changes.title === undefined ? slug : slugify(changes.title);
    await this.db.query(
      `UPDATE articles SET slug = $2, title = COALESCE($3, title), description = COALESCE($4, description),
              body = COALESCE($5, body), updated_at = now()
        WHERE slug = $1`,
      [slug, newSlug, changes.title ?? null, changes.description ?? null, changes.body ?? null],
    );
    return this.article(newSlug, userId);
  }

  async deleteArticle(slug: string, userId: number): Promise<void> {
    await this.ownArticle(slug, userId);
    await this.db.query('DELETE FROM articles WHERE slug = $1', [slug]);
  }

  async favorite(slug: string, userId: number, favorite: boolean): Promise<ArticleView> {
    const articleId = await this.articleId(slug);
    await this.db.query(
      favorite
        ? 'INSERT INTO favorites (user_id, article_id) VALUES ($1, $2) ON CONFLICT DO NOTHING'
        : 'DELETE FROM favorites WHERE user_id = $1 AND article_id = $2',
      [userId, articleId],
    );
    return this.article(slug, userId);
  }

  async tags(): Promise<string[]> {
    const rows = await this.db.query<{ tag: string }>('SELECT tag FROM article_tags GROUP BY tag ORDER BY count(*) DESC, tag COLLATE "C" LIMIT 100');
    return rows.map((row) => row.tag);
  }

  // ---- comments ----

  async comments(slug: string, viewerId: number | undefined): Promise<CommentView[]> {
    const articleId = await this.articleId(slug);
    return this.commentRows('c.article_id = $2 ORDER BY c.created_at, c.id', [viewerId ?? null, articleId]);
  }

  async addComment(slug: string, authorId: number, body: string): Promise<CommentView> {
    const articleId = await this.articleId(slug);
    const [{ id }] = await this.db.query<{ id: number }>('INSERT INTO comments (article_id, author_id, body) VALUES ($1, $2, $3) RETURNING id', [articleId, authorId, body]);
    const [comment] = await this.commentRows('c.id = $2', [authorId, id]);
    return comment;
  }

  async deleteComment(slug: string, commentId: number, userId: number): Promise<void> {
    const articleId = await this.articleId(slug);
    const [comment] = await this.db.query<{ author_id: number }>('SELECT author_id FROM comments WHERE id = $1 AND article_id = $2', [commentId, articleId]);
    if (!comment) throw new HTTPException(404, `No comment ${commentId} on ${slug}.`);
    if (comment.author_id !== userId) throw new HTTPException(403, 'Only its author can delete a comment.');
    await this.db.query('DELETE FROM comments WHERE id = $1', [commentId]);
  }

  private async commentRows(where: string, params: unknown[]): Promise<CommentView[]> {
    const rows = await this.db.query<{ id: number; body: string; created_at: Date; updated_at: Date; username: string; bio: string | null; image: string | null; following: boolean }>(
      `SELECT c.id, c.body, c.created_at, c.updated_at, u.username, u.bio, u.image,
              EXISTS (SELECT 1 FROM follows f WHERE f.followed_id = u.id AND f.follower_id = $1::int) AS following
         FROM comments c JOIN users u ON u.id = c.author_id WHERE ${where}`,
      params,
    );
    return rows.map((row) => ({
      id: row.id,
      body: row.body,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
      author: { username: row.username, bio: row.bio, image: row.image, following: row.following },
    }));
  }

  private async userId(username: string): Promise<number> {
    const [row] = await this.db.query<{ id: number }>('SELECT id FROM users WHERE username = $1', [username]);
    if (!row) throw new HTTPException(404, `No user named ${username}.`);
    return row.id;
  }

  private async articleId(slug: string): Promise<number> {
    const [row] = await this.db.query<{ id: number }>('SELECT id FROM articles WHERE slug = $1', [slug]);
    if (!row) throw new HTTPException(404, `No article ${slug}.`);
    return row.id;
  }

  private async ownArticle(slug: string, userId: number): Promise<void> {
    const [row] = await this.db.query<{ author_id: number }>('SELECT author_id FROM articles WHERE slug = $1', [slug]);
    if (!row) throw new HTTPException(404, `No article ${slug}.`);
    if (row.author_id !== userId) throw new HTTPException(403, 'Only its author can change an article.');
  }
}

/** A unique violation on users, as the spec's 422 naming the field; anything else, undefined. */
function takenField(err: unknown): HTTPException | undefined {
  const constraint = uniqueViolation(err);
  if (constraint === undefined) return undefined;
  const field = constraint.includes('email') ? 'email' : 'username';
  return unprocessable(`${field} has already been taken`);
}
