import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { waitForApp } from './fixtures.ts';

/** Institution sign-up in the browser, shared by the sign-up and the whole-journey tests. */

export const PASSWORD = 'Str0ng#Password';
export const uniqueEmail = (label: string) => `${label}-${randomBytes(4).toString('hex')}@example.com`;

export const LABELS = {
  en: {
    name: 'Institution name',
    type: 'Institution type',
    year: 'Year established',
    country: 'Country',
    city: 'City',
    firstName: 'First name',
    lastName: 'Last name',
    jobTitle: 'Job title',
    workEmail: 'Work email',
    phoneCountry: 'Phone country',
    phone: 'Phone number',
    email: 'Email address',
    password: 'Password',
    terms: 'I accept the terms of use and the privacy policy',
    submit: 'Register institution',
  },
  fr: {
    name: 'Nom de l’établissement',
    type: 'Type d’établissement',
    year: 'Année de création',
    country: 'Pays',
    city: 'Ville',
    firstName: 'Prénom',
    lastName: 'Nom',
    jobTitle: 'Fonction',
    workEmail: 'E-mail professionnel',
    phoneCountry: 'Pays du téléphone',
    phone: 'Numéro de téléphone',
    email: 'Adresse e-mail',
    password: 'Mot de passe',
    terms: "J'accepte les conditions d'utilisation et la politique de confidentialité",
    submit: 'Inscrire l’établissement',
  },
} as const;

/** Fills and sends the new-institution form; returns the institution's (unique) name. */
export async function registerInstitution(
  page: Page,
  email: string,
  labels: (typeof LABELS)[keyof typeof LABELS],
): Promise<string> {
  const name = `Lake Kivu Institute ${randomBytes(2).toString('hex')}`;
  await page.getByLabel(labels.name, { exact: true }).fill(name);
  await page.getByLabel(labels.type, { exact: true }).selectOption('private');
  await page.getByLabel(labels.year, { exact: true }).fill('1998');
  await page.getByLabel(labels.country, { exact: true }).selectOption('RW');
  await page.getByLabel(labels.city, { exact: true }).fill('Rubavu');
  await page.getByLabel(labels.firstName, { exact: true }).fill('Diane');
  await page.getByLabel(labels.lastName, { exact: true }).fill('Mukeshimana');
  await page.getByLabel(labels.jobTitle, { exact: true }).fill('Registrar');
  await page.getByLabel(labels.workEmail, { exact: true }).fill('admissions@lakekivu.example');
  await page.getByLabel(labels.phoneCountry, { exact: true }).selectOption('RW');
  await page.getByLabel(labels.phone, { exact: true }).fill('0788123456');
  await page.getByLabel(labels.email, { exact: true }).fill(email);
  await page.getByLabel(labels.password, { exact: true }).fill(PASSWORD);
  await page.getByLabel(labels.terms).check();
  await page.getByRole('button', { name: labels.submit }).click();
  return name;
}

/** Signs in from a sign-in page in English: the users' one, or the admins' (`/login/admin`). */
export async function signIn(page: Page, email: string, password: string, login: '/login' | '/login/admin' = '/login') {
  await page.goto(login);
  await waitForApp(page);
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}
