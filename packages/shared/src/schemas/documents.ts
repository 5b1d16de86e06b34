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

/** What an upload is for: one of the document types, the student's profile picture, or a fee's bank slip. */
export const UPLOAD_PURPOSES = [...DOCUMENT_TYPES, 'profile_picture', 'payment_slip'] as const;
export const UploadPurposeSchema = z.enum(UPLOAD_PURPOSES);
export type UploadPurpose = z.infer<typeof UploadPurposeSchema>;

/** File kinds recognised from their first bytes; the name a file was uploaded under is never trusted. */
export const DOCUMENT_MIME_TYPES = ['application/pdf', 'image/jpeg', 'image/png', 'image/webp', 'image/heic'] as const;
/** Pictures must be shown by browsers, which rules HEIC out. */
export const PICTURE_MIME_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
export const FileMimeTypeSchema = z.enum(DOCUMENT_MIME_TYPES);
export type FileMimeType = z.infer<typeof FileMimeTypeSchema>;

/** One row of the Documents tab: every type is listed, uploaded or not. */
export const StudentDocumentSchema = z.object({
  type: DocumentTypeSchema,
  status: z.enum([...DOCUMENT_STATUSES, 'not_uploaded']),
  file_name: z.string().nullable(),
  mime_type: FileMimeTypeSchema.nullable(),
  size: z.number().int().nonnegative().nullable(),
  uploaded_at: z.string().nullable(),
  review_note: z.string().nullable(),
});
export type StudentDocument = z.infer<typeof StudentDocumentSchema>;
export const StudentDocumentsSchema = z.array(StudentDocumentSchema);

/** The path a student's own profile picture is read from; the file id makes each new picture a new URL. */
export function profilePictureUrl(fileId: string | null): string | null {
  return fileId ? `/api/v1/students/me/profile-picture?v=${encodeURIComponent(fileId)}` : null;
}

export function documentDownloadUrl(type: DocumentType): string {
  return `/api/v1/students/me/documents/${type}/download`;
}
