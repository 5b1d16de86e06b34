import { useCallback, useEffect, useRef, useState } from 'react';
import {
  StaleDraftDetailsSchema,
  type AnswerValue,
  type DraftSaved,
  type SaveDraft,
  type StaleDraftDetails,
} from '@kaminuza/shared';
import { ApiError, hasReason } from '../../../lib/api-client.ts';

/*
 * Autosave of an application draft. Every change is written at once to the device (localStorage) and
 * sent to the server after a pause in typing, when the student leaves a section, and when the connection
 * returns. One request at a time: changes made while one is in flight go in the next. Each save carries
 * the version it was made on; a save the server refuses as stale opens a conflict instead of overwriting.
 */

export const AUTOSAVE_DELAY_MS = 800;
/** How long after a failed save (server unreachable while the browser says online) to try again. */
export const AUTOSAVE_RETRY_MS = 5000;

export type Answers = Record<string, AnswerValue>;
export type SaveStatus = 'idle' | 'saving' | 'saved' | 'offline' | 'conflict' | 'closed' | 'error';

/** Where the student is in the application, saved with the answers so a reopened draft resumes there. */
export interface DraftPosition {
  current_step: number;
  current_section_index: number;
}

/** What the device keeps of a draft: the answers, the server version they build on, unsent or not. */
export interface LocalDraft {
  answers: Answers;
  version: number;
  dirty: boolean;
}

export const localDraftKey = (id: string) => `kaminuza.draft.${id}`;

export function readLocalDraft(id: string, storage: Storage): LocalDraft | null {
  try {
    const raw = storage.getItem(localDraftKey(id));
    if (!raw) return null;
    const parsed = JSON.parse(raw) as Partial<LocalDraft>;
    if (typeof parsed.version !== 'number' || typeof parsed.answers !== 'object' || parsed.answers === null) {
      return null;
    }
    return { answers: parsed.answers, version: parsed.version, dirty: parsed.dirty === true };
  } catch {
    // A copy that cannot be read is no copy: the server's answers stand.
    return null;
  }
}

function writeLocalDraft(id: string, storage: Storage, draft: LocalDraft): void {
  try {
    storage.setItem(localDraftKey(id), JSON.stringify(draft));
  } catch {
    // A full or blocked storage leaves the server copy as the only one; autosave still runs.
  }
}

export function clearLocalDraft(id: string, storage: Storage = localStorage): void {
  storage.removeItem(localDraftKey(id));
}

const isNetworkFailure = (error: unknown) =>
  error instanceof ApiError && (error.status === 'UNAVAILABLE' || error.status === 'DEADLINE_EXCEEDED');

export interface DraftAutosaveOptions {
  id: string;
  /** The server's draft as loaded: its version, answers and position. */
  version: number;
  answers: Answers;
  position: DraftPosition;
  save: (input: SaveDraft) => Promise<DraftSaved>;
  storage?: Storage;
  delayMs?: number;
  retryMs?: number;
  isOnline?: () => boolean;
}

export interface DraftAutosave {
  answers: Answers;
  status: SaveStatus;
  /** When the server last saved the draft (ISO), for "Saved hh:mm". */
  savedAt: string | null;
  /** The server's version when a save was refused as stale; the UI asks what to do. */
  conflict: StaleDraftDetails | null;
  version: number;
  progress: number | null;
  setAnswer: (questionId: string, value: AnswerValue | undefined) => void;
  /** Records where the student is and saves at once (leaving a section). */
  moveTo: (position: DraftPosition) => Promise<boolean>;
  setCampus: (campusId: string) => Promise<boolean>;
  /** Sends what is pending now and waits; true when the server holds every change. */
  flush: () => Promise<boolean>;
  /** The answers and version the server holds once flush() answered true (for a submit). */
  snapshot: () => { version: number; answers: Answers };
  /** Conflict answer "Keep my answers": save them again on the server's newer version. */
  keepMine: () => Promise<boolean>;
  /** Conflict answer "Load the newer version": forget the local changes (the caller reloads the draft). */
  discardLocal: () => void;
}

export function useDraftAutosave(options: DraftAutosaveOptions): DraftAutosave {
  const {
    id,
    save,
    storage = globalThis.localStorage,
    delayMs = AUTOSAVE_DELAY_MS,
    retryMs = AUTOSAVE_RETRY_MS,
    isOnline = () => globalThis.navigator?.onLine !== false,
  } = options;

  // Decided once per draft load: a dirty copy on the device wins when it builds on the server's version;
  // when the server moved on meanwhile, the student chooses (conflict).
  const [initial] = useState(() => {
    const local = readLocalDraft(id, storage);
    if (!local?.dirty) return { answers: options.answers, version: options.version, dirty: false, conflict: null };
    if (local.version === options.version) {
      return { answers: local.answers, version: options.version, dirty: true, conflict: null };
    }
    return {
      answers: local.answers,
      version: local.version,
      dirty: true,
      conflict: { version: options.version, last_saved_at: null },
    };
  });

  const [answers, setAnswers] = useState<Answers>(initial.answers);
  const [status, setStatus] = useState<SaveStatus>(initial.conflict ? 'conflict' : 'idle');
  const [savedAt, setSavedAt] = useState<string | null>(null);
  const [conflict, setConflict] = useState<StaleDraftDetails | null>(initial.conflict);
  const [version, setVersion] = useState(initial.version);
  const [progress, setProgress] = useState<number | null>(null);

  const answersRef = useRef(initial.answers);
  const versionRef = useRef(initial.version);
  const positionRef = useRef(options.position);
  const campusRef = useRef<string | undefined>(undefined);
  /** Counts changes; a save clears the dirty state only if nothing changed while it was in flight. */
  const changesRef = useRef(initial.dirty ? 1 : 0);
  const sentRef = useRef(0);
  const conflictRef = useRef<StaleDraftDetails | null>(initial.conflict);
  const closedRef = useRef(false);
  const inFlightRef = useRef<Promise<void> | null>(null);
  const timerRef = useRef<ReturnType<typeof setTimeout> | null>(null);

  const dirty = () => changesRef.current !== sentRef.current;
  const remember = useCallback(
    () => writeLocalDraft(id, storage, { answers: answersRef.current, version: versionRef.current, dirty: dirty() }),
    [id, storage],
  );
  const clearTimer = () => {
    if (timerRef.current !== null) clearTimeout(timerRef.current);
    timerRef.current = null;
  };

  const sendRef = useRef<() => Promise<void>>(async () => {});
  const send = useCallback(async (): Promise<void> => {
    clearTimer();
    if (inFlightRef.current) {
      // One request at a time: wait for it, then send what changed meanwhile.
      await inFlightRef.current;
      return sendRef.current();
    }
    if (!dirty() || conflictRef.current || closedRef.current) return;
    if (!isOnline()) {
      setStatus('offline');
      return;
    }
    const changes = changesRef.current;
    const body: SaveDraft = {
      version: versionRef.current,
      answers: answersRef.current,
      ...positionRef.current,
      ...(campusRef.current ? { campus_id: campusRef.current } : {}),
    };
    setStatus('saving');
    const request = save(body).then(
      (saved) => {
        versionRef.current = saved.version;
        setVersion(saved.version);
        sentRef.current = changes;
        setSavedAt(saved.last_saved_at);
        setProgress(saved.progress_percentage);
        if (dirty()) remember();
        else storage.removeItem(localDraftKey(id));
        setStatus(dirty() ? 'saving' : 'saved');
      },
      (error: unknown) => {
        if (hasReason(error, 'stale_draft')) {
          const details = StaleDraftDetailsSchema.safeParse(error.details);
          const stale = details.success ? details.data : { version: versionRef.current + 1, last_saved_at: null };
          conflictRef.current = stale;
          setConflict(stale);
          setStatus('conflict');
        } else if (hasReason(error, 'cycle_closed')) {
          closedRef.current = true;
          setStatus('closed');
        } else if (isNetworkFailure(error) || !isOnline()) {
          setStatus('offline');
          timerRef.current = setTimeout(() => void sendRef.current(), retryMs);
        } else {
          setStatus('error');
        }
      },
    );
    inFlightRef.current = request;
    await request;
    inFlightRef.current = null;
    if (dirty() && !conflictRef.current && !closedRef.current && timerRef.current === null) {
      return sendRef.current();
    }
  }, [id, isOnline, remember, retryMs, save, storage]);
  useEffect(() => {
    sendRef.current = send;
  }, [send]);

  const schedule = useCallback(() => {
    clearTimer();
    timerRef.current = setTimeout(() => void sendRef.current(), delayMs);
  }, [delayMs]);

  const change = useCallback(() => {
    changesRef.current += 1;
    remember();
    if (conflictRef.current || closedRef.current) return;
    if (!isOnline()) setStatus('offline');
  }, [isOnline, remember]);

  const setAnswer = useCallback(
    (questionId: string, value: AnswerValue | undefined) => {
      const next = { ...answersRef.current };
      if (value === undefined) delete next[questionId];
      else next[questionId] = value;
      answersRef.current = next;
      setAnswers(next);
      change();
      schedule();
    },
    [change, schedule],
  );

  const settle = useCallback(async () => {
    await sendRef.current();
    // A change typed while that save was in flight waits for its pause; leaving the section does not.
    if (dirty() && timerRef.current !== null) await sendRef.current();
    return !dirty() && !conflictRef.current && !closedRef.current;
  }, []);

  const moveTo = useCallback(
    (position: DraftPosition) => {
      positionRef.current = position;
      change();
      return settle();
    },
    [change, settle],
  );

  const setCampus = useCallback(
    (campusId: string) => {
      campusRef.current = campusId;
      change();
      return settle();
    },
    [change, settle],
  );

  const keepMine = useCallback(() => {
    const stale = conflictRef.current;
    if (stale) {
      versionRef.current = stale.version;
      setVersion(stale.version);
    }
    conflictRef.current = null;
    setConflict(null);
    change();
    return settle();
  }, [change, settle]);

  const snapshot = useCallback(() => ({ version: versionRef.current, answers: answersRef.current }), []);

  const discardLocal = useCallback(() => {
    clearTimer();
    changesRef.current = sentRef.current;
    storage.removeItem(localDraftKey(id));
  }, [id, storage]);

  // A restored copy (same version as the server) is sent at once.
  useEffect(() => {
    if (initial.dirty && !initial.conflict) void sendRef.current();
  }, [initial]);

  useEffect(() => {
    const online = () => void sendRef.current();
    const offline = () => {
      if (dirty() && !conflictRef.current && !closedRef.current) setStatus('offline');
    };
    window.addEventListener('online', online);
    window.addEventListener('offline', offline);
    return () => {
      window.removeEventListener('online', online);
      window.removeEventListener('offline', offline);
      // Leaving the screen sends what is pending; the device copy covers a send that never arrives.
      clearTimer();
      if (dirty()) void sendRef.current();
    };
  }, []);

  return {
    answers,
    status,
    savedAt,
    conflict,
    version,
    progress,
    setAnswer,
    moveTo,
    setCampus,
    flush: settle,
    snapshot,
    keepMine,
    discardLocal,
  };
}
