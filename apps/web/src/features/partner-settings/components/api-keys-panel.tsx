import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import {
  API_KEY_SCOPES,
  ApiKeyCreateSchema,
  type ApiKeyCreate,
  type CreatedApiKey,
  type PartnerApiKey,
} from '@kaminuza/shared';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { Dialog } from '../../../components/dialog.tsx';
import { FormAlert, TextField, useMessage } from '../../../components/form/field.tsx';
import { showFieldErrors } from '../../../components/form/account-fields.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { errorMessageKey } from '../../../lib/error-messages.ts';
import { useCopy } from '../../../lib/use-copy.ts';
import { useCreateApiKey } from '../api/create-api-key.ts';
import { useApiKeys } from '../api/get-api-keys.ts';
import { useRevokeApiKey } from '../api/revoke-api-key.ts';
import { dateTimeFormat } from '../../../lib/intl.ts';

/** Where the api serves its OpenAPI documentation (Swagger UI). */
const API_DOCS_URL = '/api/docs';

function useDateTime() {
  const { i18n } = useTranslation();
  const format = dateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
  return (value: string) => format.format(new Date(value));
}

/** Keys of the partner REST API: made here, shown once, listed by their prefix, revoked for good. */
export function ApiKeysPanel({ partnerId }: { partnerId: string }) {
  const { t } = useTranslation();
  const keys = useApiKeys(partnerId);
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const [revoking, setRevoking] = useState<PartnerApiKey | null>(null);
  const l = (key: string) => t(`partner_settings.api_keys.${key}`);

  return (
    <div className="flex min-w-0 flex-col gap-6">
      <section
        aria-labelledby="api-keys-title"
        className="flex min-w-0 flex-col gap-4 rounded-2xl border border-border bg-surface p-4 sm:p-6"
      >
        <h2 id="api-keys-title" className="text-xl font-semibold">
          {l('title')}
        </h2>
        <p className="text-muted">{l('lead')}</p>
        <p>
          <a className="link" href={API_DOCS_URL} target="_blank" rel="noopener">
            {l('docs_link')}
          </a>
        </p>
        <button type="button" className="btn-primary self-start" onClick={() => setCreating(true)}>
          {l('create')}
        </button>
        {created && <CreatedKey created={created} onDone={() => setCreated(null)} />}
      </section>

      <section aria-labelledby="api-keys-list-title" className="flex min-w-0 flex-col gap-3">
        <h2 id="api-keys-list-title" className="text-xl font-semibold">
          {l('list_title')}
        </h2>
        {keys.isPending && <Spinner />}
        {keys.isError && (
          <div role="alert" className="flex flex-wrap items-center gap-3 rounded-xl border border-danger p-4">
            <p className="min-w-0 flex-1 text-danger">{t(errorMessageKey(keys.error))}</p>
            <button type="button" className="btn-secondary" onClick={() => void keys.refetch()}>
              {t('partner_settings.retry')}
            </button>
          </div>
        )}
        {keys.data?.length === 0 && (
          <p className="rounded-xl border border-dashed border-border p-6 text-center text-muted">{l('empty')}</p>
        )}
        {keys.data && keys.data.length > 0 && (
          <ul aria-labelledby="api-keys-list-title" className="flex flex-col gap-3">
            {keys.data.map((key) => (
              <ApiKeyItem key={key.id} apiKey={key} onRevoke={() => setRevoking(key)} />
            ))}
          </ul>
        )}
      </section>

      {creating && (
        <CreateKeyDialog
          partnerId={partnerId}
          onClose={() => setCreating(false)}
          onCreated={(value) => {
            setCreating(false);
            setCreated(value);
          }}
        />
      )}
      {revoking && <RevokeKeyDialog partnerId={partnerId} apiKey={revoking} onClose={() => setRevoking(null)} />}
    </div>
  );
}

function ApiKeyItem({ apiKey, onRevoke }: { apiKey: PartnerApiKey; onRevoke: () => void }) {
  const { t } = useTranslation();
  const dateTime = useDateTime();
  const l = (key: string) => t(`partner_settings.api_keys.${key}`);
  const revoked = apiKey.revoked_at !== null;
  return (
    <li className="flex min-w-0 flex-col gap-3 rounded-xl border border-border bg-surface p-4 sm:flex-row sm:items-start">
      <div className="min-w-0 flex-1">
        <h3 className="font-semibold break-words">
          {apiKey.name}
          {revoked && (
            <span className="ml-2 rounded-full border border-border px-2 py-0.5 text-xs font-medium text-muted">
              {l('revoked')}
            </span>
          )}
        </h3>
        <dl className="mt-2 grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
          <dt className="text-muted">{l('prefix')}</dt>
          <dd className="font-mono break-all">{apiKey.prefix}…</dd>
          <dt className="text-muted">{l('scopes')}</dt>
          <dd>{apiKey.scopes.map((scope) => l(`scope_names.${scope.replace(':', '_')}`)).join(', ')}</dd>
          <dt className="text-muted">{l('created')}</dt>
          <dd>{dateTime(apiKey.created_at)}</dd>
          <dt className="text-muted">{l('last_used')}</dt>
          <dd>{apiKey.last_used_at ? dateTime(apiKey.last_used_at) : l('never_used')}</dd>
          {apiKey.revoked_at && (
            <>
              <dt className="text-muted">{l('revoked_at')}</dt>
              <dd>{dateTime(apiKey.revoked_at)}</dd>
            </>
          )}
        </dl>
      </div>
      {!revoked && (
        <button
          type="button"
          className="btn-secondary text-danger"
          aria-label={t('partner_settings.api_keys.revoke_named', { name: apiKey.name })}
          onClick={onRevoke}
        >
          {l('revoke')}
        </button>
      )}
    </li>
  );
}

/** The new key, once: copy it now, it is not shown again. */
function CreatedKey({ created, onDone }: { created: CreatedApiKey; onDone: () => void }) {
  const { t } = useTranslation();
  const l = (key: string) => t(`partner_settings.api_keys.${key}`);
  const { copied, copy } = useCopy();
  const title = useRef<HTMLHeadingElement>(null);
  // The dialog that made the key has closed: the key is what to read next, so focus goes to it.
  useEffect(() => title.current?.focus(), []);

  return (
    <div
      role="region"
      aria-labelledby="created-key-title"
      className="flex min-w-0 flex-col gap-3 rounded-xl border-2 border-brand p-4"
    >
      <h3 id="created-key-title" ref={title} tabIndex={-1} className="font-semibold focus:outline-none">
        {t('partner_settings.api_keys.created_title', { name: created.api_key.name })}
      </h3>
      <p role="note" className="text-sm font-medium">
        {l('created_warning')}
      </p>
      <code
        id="created-api-key"
        aria-label={l('the_key')}
        className="block rounded-lg bg-surface-muted p-3 font-mono text-sm break-all"
      >
        {created.key}
      </code>
      <div className="flex flex-wrap gap-2">
        <button
          type="button"
          className="btn-primary"
          onClick={() => void copy(created.key, document.getElementById('created-api-key'))}
        >
          <span aria-live="polite">{copied ? l('copied') : l('copy')}</span>
        </button>
        <button type="button" className="btn-secondary" onClick={onDone}>
          {l('done')}
        </button>
      </div>
    </div>
  );
}

function CreateKeyDialog({
  partnerId,
  onClose,
  onCreated,
}: {
  partnerId: string;
  onClose: () => void;
  onCreated: (created: CreatedApiKey) => void;
}) {
  const { t } = useTranslation();
  const message = useMessage();
  const create = useCreateApiKey(partnerId);
  const l = (key: string) => t(`partner_settings.api_keys.${key}`);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<ApiKeyCreate>({
    resolver: zodResolver(ApiKeyCreateSchema),
    defaultValues: { name: '', scopes: [] },
  });
  const onSubmit = handleSubmit((values) =>
    create.mutate(values, { onSuccess: onCreated, onError: (error) => showFieldErrors(error, setError) }),
  );

  return (
    <Dialog title={l('create_title')} description={l('create_description')} onClose={onClose}>
      {() => (
        <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
          <TextField label={l('name')} hint={l('name_hint')} error={errors.name?.message} {...register('name')} />
          <fieldset className="min-w-0">
            <legend className="mb-2 font-medium">{l('scopes')}</legend>
            <div className="flex flex-col gap-1">
              {API_KEY_SCOPES.map((scope) => (
                <label key={scope} className="flex min-h-11 cursor-pointer items-start gap-3 py-1">
                  <input
                    type="checkbox"
                    value={scope}
                    className="mt-1 size-5 shrink-0 accent-brand"
                    {...register('scopes')}
                  />
                  <span>
                    <span className="font-medium">{l(`scope_names.${scope.replace(':', '_')}`)}</span>
                    <span className="block text-sm text-muted">{l(`scope_hints.${scope.replace(':', '_')}`)}</span>
                  </span>
                </label>
              ))}
            </div>
            {errors.scopes?.message && (
              <p className="mt-1 text-sm font-medium text-danger">{message(errors.scopes.message)}</p>
            )}
          </fieldset>
          {create.isError && <FormAlert>{t(errorMessageKey(create.error))}</FormAlert>}
          <div className="flex flex-wrap justify-end gap-2">
            <button type="button" className="btn-secondary" onClick={onClose}>
              {l('cancel')}
            </button>
            <button type="submit" className="btn-primary" disabled={create.isPending}>
              {create.isPending ? l('creating') : l('create_submit')}
            </button>
          </div>
        </form>
      )}
    </Dialog>
  );
}

function RevokeKeyDialog({
  partnerId,
  apiKey,
  onClose,
}: {
  partnerId: string;
  apiKey: PartnerApiKey;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const revoke = useRevokeApiKey(partnerId);
  const l = (key: string) => t(`partner_settings.api_keys.${key}`);
  return (
    <ConfirmDialog
      title={t('partner_settings.api_keys.revoke_title', { name: apiKey.name })}
      description={l('revoke_description')}
      confirmLabel={l('revoke_confirm')}
      cancelLabel={l('cancel')}
      pending={revoke.isPending}
      error={revoke.isError ? t(errorMessageKey(revoke.error)) : undefined}
      onConfirm={() => revoke.mutate(apiKey.id, { onSuccess: onClose })}
      onClose={onClose}
    />
  );
}
