import { scheduledPass, type JobDefinition } from '../../lib/jobs/queue.ts';
import type { UploadArea } from './upload-area.ts';

/** Every hour, the uploads left unfinished past their expiry are removed (on disk or in the bucket). */
export function uploadJobs({ area }: { area: UploadArea }): JobDefinition[] {
  return [
    scheduledPass({
      name: 'uploads.clean-up',
      schedule: '17 * * * *',
      pass: () => area.deleteExpired(),
      done: 'removed expired uploads',
    }),
  ];
}
