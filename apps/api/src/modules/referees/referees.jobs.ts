import { REFEREE_REMINDER_DAYS } from '@kaminuza/shared';
import { scheduledPass, type JobDefinition } from '../../lib/jobs/queue.ts';
import { remindReferees, type RefereeDeps } from './referees.service.ts';

/** Reminds referees whose letters are awaited (REFEREE_REMINDER_DAYS after their invitation), hourly, once across the instances. */
export function refereeJobs(deps: Pick<RefereeDeps, 'db' | 'publicUrl' | 'secret'>): JobDefinition[] {
  return [
    scheduledPass({
      name: 'referees.reminders',
      schedule: '17 * * * *',
      pass: () => remindReferees(deps, new Date(), REFEREE_REMINDER_DAYS),
      done: 'reminded referees of awaited letters',
    }),
  ];
}
