/**
 * Hand-written validation of POST /items for the node:http and Express servers: the rules of
 * item-dto.ts, written as plain code (what a hand-rolled service would do). Returns a new
 * object holding only the known fields, or a list of `{ path, message }` errors.
 */
import type { ItemLine, ItemPayload } from './payload';

export interface CheckError {
  path: string;
  message: string;
}

// A pragmatic address check (local@domain.tld); class-validator and Ajv use stricter ones.
const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const SKU_RE = /^[A-Z0-9-]+$/;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function str(v: unknown, min: number, max: number): boolean {
  return typeof v === 'string' && v.length >= min && v.length <= max;
}

export function checkItem(body: unknown): { value: ItemPayload } | { errors: CheckError[] } {
  const errors: CheckError[] = [];
  if (!isObject(body)) return { errors: [{ path: '', message: 'body must be an object' }] };

  if (!str(body.name, 1, 200)) errors.push({ path: 'name', message: 'name must be a string of 1..200 characters' });
  const price = body.price;
  if (typeof price !== 'number' || !Number.isFinite(price) || price < 0) {
    errors.push({ path: 'price', message: 'price must be a number >= 0' });
  }

  const tags = body.tags;
  if (!Array.isArray(tags) || tags.length > 20) {
    errors.push({ path: 'tags', message: 'tags must be an array of at most 20 strings' });
  } else {
    for (let i = 0; i < tags.length; i++) {
      if (!str(tags[i], 1, 50)) errors.push({ path: `tags.${i}`, message: 'each tag must be a string of 1..50 characters' });
    }
  }

  const owner = body.owner;
  let ownerValue: ItemPayload['owner'] | undefined;
  if (!isObject(owner)) {
    errors.push({ path: 'owner', message: 'owner must be an object' });
  } else {
    if (!str(owner.name, 1, 100)) errors.push({ path: 'owner.name', message: 'owner.name must be a string of 1..100 characters' });
    if (typeof owner.email !== 'string' || !EMAIL_RE.test(owner.email)) {
      errors.push({ path: 'owner.email', message: 'owner.email must be an email' });
    }
    ownerValue = { name: owner.name as string, email: owner.email as string };
  }

  const lines = body.lines;
  const lineValues: ItemLine[] = [];
  if (!Array.isArray(lines) || lines.length < 1 || lines.length > 100) {
    errors.push({ path: 'lines', message: 'lines must be an array of 1..100 lines' });
  } else {
    for (let i = 0; i < lines.length; i++) {
      const line: unknown = lines[i];
      if (!isObject(line)) {
        errors.push({ path: `lines.${i}`, message: 'each line must be an object' });
        continue;
      }
      if (!str(line.sku, 1, 64) || !SKU_RE.test(line.sku as string)) {
        errors.push({ path: `lines.${i}.sku`, message: 'sku must match /^[A-Z0-9-]+$/' });
      }
      if (typeof line.qty !== 'number' || !Number.isInteger(line.qty) || line.qty < 1) {
        errors.push({ path: `lines.${i}.qty`, message: 'qty must be an integer >= 1' });
      }
      lineValues.push({ sku: line.sku as string, qty: line.qty as number });
    }
  }

  if (errors.length > 0) return { errors };
  return {
    value: {
      name: body.name as string,
      price: price as number,
      tags: (tags as string[]).slice(),
      owner: ownerValue!,
      lines: lineValues,
    },
  };
}
