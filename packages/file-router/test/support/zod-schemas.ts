/** zod schemas for route files written into temporary trees (which cannot resolve `zod` themselves). */
import { z } from 'zod';

export const CreateNote = z.object({ title: z.string().min(1) });
export const Note = z.object({ id: z.number(), title: z.string() }).meta({ id: 'Note' });
