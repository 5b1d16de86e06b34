import { useCallback, useEffect, useRef, useState } from 'react';
import {
  StaleDraftDetailsSchema,
  type AnswerValue,
  type DraftSaved,
  type SaveDraft,
  type StaleDraftDetails,
} from '@kaminuza/shared';
import { ApiError, hasReason } from '../../../lib/api-client.ts';
import type { DeviceDraft } from '../../../lib/device-db.ts';
import { deleteDeviceDraft, putDeviceDraft, type DraftPosition } from './device-drafts.ts';

/*
 * Autosave of an application draft. Every change is written at once to the device (IndexedDB, with where
 * the student is) and sent to the server after a pause in typing, when the student leaves a section, and
 * when the connection returns. One request at a time: changes made while one is in flight go in the next.
 * Each save carries the version it was made on; a save the server refuses as stale opens a conflict instead
 * of overwriting, and the student chooses between the two versions.
 */

export const AUTOSAVE_DELAY_MS = 800;
/** How long after a failed save (server unreachable while the browser says online) to try again. */
export const AUTOSAVE_RETRY_MS = 5000;

export type Answers = Record<string, AnswerValue>;
export type SaveStatus = 'idle' | 'saving' | 'saved' | 'offline' | 'conflict' | 'closed' | 'error';
export type { DraftPosition };

const isNetworkFailure = (error: unknown) =>
  error instanceof ApiError && (error.status === 'UNAVAILABLE' || error.status === 'DEADLINE_EXCEEDED');

export interface DraftAutosaveOptions {
  id: string;
  /** The server's draft as loaded: its version, answers and position. */
  version: number;
  answers: Answers;
  position: DraftPosition;
  /** The device's copy as loaded before the editor opened (loadDeviceDraft), or null. */
  device: DeviceDraft | null;
  save: (input: SaveDraft) => Promise<DraftSaved>;
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
  /** False when the device could not keep the last change (no IndexedDB): nothing then claims it is saved there. */
  keptOnDevice: boolean;
  /** Where the student was: the device copy's position when it holds unsent changes or a later save, else the server's. */
  resumeAt: DraftPosition;
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
  /**
   * The student's answer to a conflict: `answers` (theirs, the saved ones, or a choice per question) saved
   * on the server's newer `version`.
   */
  resolve: (answers: Answers, version: number) => Promise<boolean>;
  /** Conflict answer "Load the newer version": forget the local changes (the caller reloads the draft). */
  discardLocal: () => void;
}

export function useDraftAutosave(options: DraftAutosaveOptions): DraftAutosave {
  const {
    id,
    save,
    delayMs = AUTOSAVE_DELAY_MS,
    retryMs = AUTOSAVE_RETRY_MS,
    isOnline = () => globalThis.navigator?.onLine !== false,
  } = options;

  // Decided once per draft load: a dirty copy on the device wins when it builds on the server's version;
  // when the server moved on meanwhile, the student chooses (conflict).
  const [initial] = useState(() => {
    const local = options.device;
    // A saved copy newer than the draft loaded: the load was the service worker's older copy (offline)
    // and the device holds what the server last saved.
    if (local && !local.dirty && local.version > options.version) {
      return {
        answers: local.answers as Answers,
        version: local.version,
        position: local.position ?? options.position,
        dirty: false,
        conflict: null,
      };
    }
    if (!local?.dirty) {
      return {
        answers: options.answers,
        version: options.version,
        position: options.position,
        dirty: false,
        conflict: null,
      };
    }
    const position = local.position ?? options.position;
    const answers = local.answers as Answers;
    // Versions only grow: a copy built on a newer version than the one loaded means the load was an older
    // copy (the service worker's, offline), not that the server moved on.
    if (local.version >= options.version) {
      return { answers, version: local.version, position, dirty: true, conflict: null };
    }
    return {
      answers,
      version: local.version,
      position,
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
  const [keptOnDevice, setKeptOnDevice] = useState(true);

  const answersRef = useRef(initial.answers);
  const versionRef = useRef(initial.version);
  const positionRef = useRef(initial.position);
  const campusRef = useRef<string | undefined>(undefined);
  /** Counts changes; a save clears the dirty state only if nothing changed while it was in flight. */
  const changesRef = useRef(initial.dirty ? 1 : 0);
  const sentRef = useRef(0);
  const conflictRef = useRef<StaleDraftDetails | null>(initial.conflict);
  const closedRef = useRef(false);
  const inFlightRef = useRef<Promise<void> | null>(null);
  const timerRef = useRef<ReturnType<typeof setTimeout> | null>(null);

  const dirty = () => changesRef.current !== sentRef.current;
  // Written on every change, before any pause: a tab closed mid-word keeps what was typed.
  const remember = useCallback(() => {
    void putDeviceDraft({
      id,
      answers: answersRef.current,
      version: versionRef.current,
      dirty: dirty(),
      position: positionRef.current,
      updated_at: new Date().toISOString(),
    }).then(setKeptOnDevice);
  }, [id]);
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
        // Kept when saved too (marked clean): a reload offline then shows these answers, not the older
        // copy the service worker read when the page opened.
        remember();
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
  }, [isOnline, remember, retryMs, save]);
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

  const resolve = useCallback(
    (chosen: Answers, serverVersion: number) => {
      answersRef.current = chosen;
      setAnswers(chosen);
      versionRef.current = serverVersion;
      setVersion(serverVersion);
      conflictRef.current = null;
      setConflict(null);
      change();
      return settle();
    },
    [change, settle],
  );

  const snapshot = useCallback(() => ({ version: versionRef.current, answers: answersRef.current }), []);

  const discardLocal = useCallback(() => {
    clearTimer();
    changesRef.current = sentRef.current;
    void deleteDeviceDraft(id);
  }, [id]);

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
    keptOnDevice,
    resumeAt: initial.position,
    version,
    progress,
    setAnswer,
    moveTo,
    setCampus,
    flush: settle,
    snapshot,
    resolve,
    discardLocal,
  };
}
