-- The RealWorld schema. Applied once by @tern/postgres's migrate(); append new files, never edit this one.
CREATE TABLE users (
  id            serial PRIMARY KEY,
  username      text NOT NULL CONSTRAINT users_username_key UNIQUE,
  email         text NOT NULL CONSTRAINT users_email_key UNIQUE,
  password_hash text NOT NULL,
  bio           text,
  image         text
);
CREATE TABLE follows (
  follower_id integer NOT NULL REFERENCES users ON DELETE CASCADE,
  followed_id integer NOT NULL REFERENCES users ON DELETE CASCADE,
  PRIMARY KEY (follower_id, followed_id)
);
CREATE TABLE articles (
  id          serial PRIMARY KEY,
  slug        text NOT NULL CONSTRAINT articles_slug_key UNIQUE,
  title       text NOT NULL,
  description text NOT NULL,
  body        text NOT NULL,
  author_id   integer NOT NULL REFERENCES users ON DELETE CASCADE,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX articles_created_at ON articles (created_at DESC, id DESC);
CREATE TABLE article_tags (
  article_id integer NOT NULL REFERENCES articles ON DELETE CASCADE,
  tag        text NOT NULL,
  position   integer NOT NULL,
  PRIMARY KEY (article_id, tag)
);
CREATE INDEX article_tags_tag ON article_tags (tag);
CREATE TABLE favorites (
  user_id    integer NOT NULL REFERENCES users ON DELETE CASCADE,
  article_id integer NOT NULL REFERENCES articles ON DELETE CASCADE,
  PRIMARY KEY (user_id, article_id)
);
CREATE TABLE comments (
  id         serial PRIMARY KEY,
  article_id integer NOT NULL REFERENCES articles ON DELETE CASCADE,
  author_id  integer NOT NULL REFERENCES users ON DELETE CASCADE,
  body       text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
