import { z } from 'zod';

/** Spec section 3: the five document types, and the statuses a document can have once uploaded. */
export const DOCUMENT_TYPES = [
  'transcript',
  'test_scores',
  'recommendation_letter',
  'personal_statement',
  'passport',
] as const;
export const DocumentTypeSchema = z.enum(DOCUMENT_TYPES);
export type DocumentType = z.infer<typeof DocumentTypeSchema>;

/** "not uploaded" is the absence of a document, never a stored status. */
export const DOCUMENT_STATUSES = ['pending', 'verified', 'rejected'] as const;
export const DocumentStatusSchema = z.enum(DOCUMENT_STATUSES);
export type DocumentStatus = z.infer<typeof DocumentStatusSchema>;
