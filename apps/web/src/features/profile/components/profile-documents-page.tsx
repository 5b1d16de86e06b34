import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ProfilePictureInput } from '../../../components/upload/profile-picture-input.tsx';
import { DocumentsTab } from './documents-tab.tsx';

const pictureQuery = {
  queryKey: ['students', 'me', 'profile-picture'],
  // A new URL per check, so a replaced picture is fetched again rather than taken from the cache.
  queryFn: async () => {
    const response = await fetch('/api/v1/students/me/profile-picture', { method: 'HEAD', credentials: 'same-origin' });
    return response.ok ? `/api/v1/students/me/profile-picture?v=${Date.now()}` : null;
  },
};

/** The profile screen's documents and picture, until the full profile with its tabs takes this route. */
export function ProfileDocumentsPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const picture = useQuery(pictureQuery);
  return (
    <section className="mx-auto flex max-w-4xl flex-col gap-8">
      <h1 className="text-3xl font-bold tracking-tight">{t('documents.profile_title')}</h1>
      {picture.isSuccess && (
        <ProfilePictureInput
          pictureUrl={picture.data}
          onUploaded={() => void queryClient.invalidateQueries({ queryKey: pictureQuery.queryKey })}
        />
      )}
      <DocumentsTab />
    </section>
  );
}
