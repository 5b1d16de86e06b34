import type { FormSection, LocalizedText, Question } from '@kaminuza/shared';

/*
 * The form a new institution starts with, so its first intake can open before anyone builds a form:
 * what most admissions offices ask, in the three interface languages. Staff edit or replace it.
 */

export const DEFAULT_FORM_NAME = 'Application form';

const t = (en: string, fr: string, rw: string): LocalizedText => ({ en, fr, rw });
const none: LocalizedText = {};

const heardOptions = [
  ['social_media', t('Social media', 'Réseaux sociaux', 'Imbuga nkoranyambaga')],
  ['friends_family', t('Friends or family', 'Amis ou famille', 'Inshuti cyangwa umuryango')],
  ['counsellor', t('A school counsellor', "Un conseiller d'orientation", "Umujyanama w'ishuri")],
  ['education_fair', t('An education fair', "Un salon de l'éducation", "Imurikagurisha ry'uburezi")],
  ['other', t('Other', 'Autre', 'Ibindi')],
] as const;

/** A question before it has its place in the section. */
type Draft = { [K in Question['type']]: Omit<Extract<Question, { type: K }>, 'order'> }[Question['type']];

const sections: Array<{ id: string; title: LocalizedText; questions: Draft[] }> = [
  {
    id: 'programme-choice',
    title: t(
      'Your programme choice & motivation',
      'Votre choix de programme et votre motivation',
      "Porogaramu wahisemo n'impamvu uyishaka",
    ),
    questions: [
      {
        id: 'motivation',
        type: 'long_text',
        word_limit: 500,
        required: true,
        label: t(
          'Why do you want to join this programme?',
          'Pourquoi souhaitez-vous rejoindre ce programme ?',
          'Kuki wifuza kwiga iyi porogaramu?',
        ),
        help: t('500 words at most.', '500 mots au maximum.', 'Amagambo atarenze 500.'),
      },
      {
        id: 'heard_about_us',
        type: 'single_choice',
        required: false,
        label: t('How did you hear about us?', 'Comment avez-vous entendu parler de nous ?', 'Watumenye ute?'),
        help: none,
        options: heardOptions.map(([id, label]) => ({ id, label })),
      },
    ],
  },
  {
    id: 'about-you',
    title: t('About you', 'À propos de vous', 'Ibikwerekeye'),
    questions: [
      {
        id: 'phone',
        type: 'phone',
        required: false,
        profile_field: 'phone',
        label: t('Your phone number', 'Votre numéro de téléphone', 'Nimero yawe ya telefoni'),
        help: t(
          'Filled in from your profile; change it here if needed.',
          'Repris de votre profil ; modifiez-le ici si besoin.',
          'Byavuye mu mwirondoro wawe; ushobora kubihindura hano.',
        ),
      },
      {
        id: 'nationality',
        type: 'country',
        required: false,
        profile_field: 'nationality',
        label: t('Nationality', 'Nationalité', 'Ubwenegihugu'),
        help: none,
      },
    ],
  },
  {
    id: 'academic-background',
    title: t('Academic background', 'Parcours scolaire', 'Amashuri wize'),
    questions: [
      {
        id: 'grade_average',
        type: 'number',
        min: 0,
        max: 100,
        required: true,
        label: t(
          'Your final secondary school average (out of 100)',
          "Votre moyenne finale de l'école secondaire (sur 100)",
          "Impuzandengo y'amanota yawe ya nyuma mu mashuri yisumbuye (ku 100)",
        ),
        help: none,
      },
      {
        id: 'completion_date',
        type: 'date',
        required: true,
        label: t(
          'When did you finish (or when will you finish) secondary school?',
          "Quand avez-vous terminé (ou quand terminerez-vous) l'école secondaire ?",
          'Warangije (cyangwa uzarangiza) amashuri yisumbuye ryari?',
        ),
        help: none,
      },
      {
        id: 'school_country',
        type: 'country',
        required: true,
        label: t('Country where you studied', 'Pays où vous avez étudié', 'Igihugu wizemo'),
        help: none,
      },
    ],
  },
  {
    id: 'documents',
    title: t('Documents', 'Documents', 'Inyandiko'),
    questions: [
      {
        id: 'transcript',
        type: 'file',
        document_type: 'transcript',
        required: true,
        label: t('Your latest academic transcript', 'Votre dernier relevé de notes', "Icyemezo cy'amanota giheruka"),
        help: none,
      },
      {
        id: 'passport',
        type: 'file',
        document_type: 'passport',
        required: false,
        label: t('Your passport', 'Votre passeport', 'Pasiporo yawe'),
        help: t(
          'Needed for international applicants.',
          'Nécessaire pour les candidats internationaux.',
          'Irakenewe ku banyeshuri baturuka mu mahanga.',
        ),
      },
    ],
  },
  {
    id: 'declaration',
    title: t('Declaration', 'Déclaration', 'Icyemezo'),
    questions: [
      {
        id: 'information_true',
        type: 'yes_no',
        required: true,
        label: t(
          'I confirm that the information I have given is true and complete.',
          'Je confirme que les informations fournies sont exactes et complètes.',
          'Nemeza ko amakuru natanze ari ukuri kandi yuzuye.',
        ),
        help: none,
      },
    ],
  },
];

/** The default form's sections, ordered. */
export function defaultFormSections(): FormSection[] {
  return sections.map((section, sectionIndex) => ({
    id: section.id,
    order: sectionIndex,
    title: section.title,
    description: none,
    questions: section.questions.map((question, index) => ({ ...question, order: index }) as Question),
  }));
}

/** The one section a new form starts with. */
export function starterSections(): FormSection[] {
  return [
    {
      id: 'section-1',
      order: 0,
      title: t('Section 1', 'Section 1', 'Igice cya 1'),
      description: none,
      questions: [],
    },
  ];
}
