/**
 * The example's data: an in-memory store handed to the controllers through their constructors.
 * A real app would pass a database client or repositories the same way.
 */
export interface User {
  id: number;
  name: string;
  email: string;
  createdAt: Date;
}

export interface Post {
  id: number;
  authorId: number;
  title: string;
  body: string;
  tags: string[];
  createdAt: Date;
}

export interface Page<T> {
  items: T[];
  page: number;
  limit: number;
  total: number;
}

export class Store {
  private readonly users = new Map<number, User>();
  private readonly posts = new Map<number, Post>();
  /** Access token → user id. A real app would verify a JWT or look up a session instead. */
  private readonly tokens = new Map<string, number>();
  private nextUserId = 1;
  private nextPostId = 1;

  /** Two users (tokens `ada-token` and `grace-token`) and a few posts. */
  static seeded(): Store {
    const store = new Store();
    const ada = store.createUser({ name: 'Ada Lovelace', email: 'ada@example.com' }, 'ada-token');
    const grace = store.createUser({ name: 'Grace Hopper', email: 'grace@example.com' }, 'grace-token');
    store.createPost(ada.id, { title: 'Notes on the Analytical Engine', body: 'It weaves algebraic patterns.', tags: ['history', 'computing'] });
    store.createPost(grace.id, { title: 'Finding the first bug', body: 'A moth, in relay 70.', tags: ['debugging'] });
    store.createPost(grace.id, { title: 'Compilers for everyone', body: 'Write programs in English-like words.', tags: ['computing'] });
    return store;
  }

  createUser(data: { name: string; email: string }, token?: string): User {
    const user: User = { id: this.nextUserId++, name: data.name, email: data.email, createdAt: new Date() };
    this.users.set(user.id, user);
    if (token) this.tokens.set(token, user.id);
    return user;
  }

  findUser(id: number): User | undefined {
    return this.users.get(id);
  }

  findUserByEmail(email: string): User | undefined {
    return [...this.users.values()].find((u) => u.email.toLowerCase() === email.toLowerCase());
  }

  userForToken(token: string): User | undefined {
    const id = this.tokens.get(token);
    return id === undefined ? undefined : this.users.get(id);
  }

  listUsers(filter: { search?: string } = {}): User[] {
    const search = filter.search?.toLowerCase();
    return [...this.users.values()].filter((u) => !search || u.name.toLowerCase().includes(search));
  }

  createPost(authorId: number, data: { title: string; body: string; tags?: string[] }): Post {
    const post: Post = { id: this.nextPostId++, authorId, title: data.title, body: data.body, tags: data.tags ?? [], createdAt: new Date() };
    this.posts.set(post.id, post);
    return post;
  }

  findPost(id: number): Post | undefined {
    return this.posts.get(id);
  }

  listPosts(filter: { authorId?: number; tag?: string } = {}): Post[] {
    return [...this.posts.values()].filter(
      (p) => (filter.authorId === undefined || p.authorId === filter.authorId) && (filter.tag === undefined || p.tags.includes(filter.tag)),
    );
  }

  updatePost(id: number, changes: Partial<Pick<Post, 'title' | 'body' | 'tags'>>): Post {
    const post = this.posts.get(id) as Post;
    for (const [key, value] of Object.entries(changes)) if (value !== undefined) Object.assign(post, { [key]: value });
    return post;
  }

  deletePost(id: number): void {
    this.posts.delete(id);
  }
}

/** One page of `items` (pages count from 1). */
export function paginate<T>(items: T[], page: number, limit: number): Page<T> {
  return { items: items.slice((page - 1) * limit, page * limit), page, limit, total: items.length };
}
