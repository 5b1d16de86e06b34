import type { FormSection, ProgramInput } from '@kaminuza/shared';

/*
 * The demo institution's admissions setup: what a real technology university would publish, so the demo
 * student can apply right after the first start.
 */

export const DEMO_CAMPUSES = [
  { key: 'kilinto', name: 'Kilinto Main Campus', address: 'Kilinto, Akaki Kality', city: 'Addis Ababa', country: 'ET' },
  { key: 'bole', name: 'Bole City Campus', address: 'Bole Road', city: 'Addis Ababa', country: 'ET' },
] as const;
type CampusKey = (typeof DEMO_CAMPUSES)[number]['key'];

export const DEMO_PROGRAMS: (Omit<ProgramInput, 'campus_ids'> & { campuses: CampusKey[] })[] = [
  {
    name: 'BSc Software Engineering',
    level: 'undergraduate',
    field: 'technology',
    duration_months: 60,
    language: 'en',
    tuition_amount: 1900,
    tuition_currency: 'USD',
    requirements: 'A short interview with the department for applicants from outside Ethiopia.',
    // Rules per examination (issue 25): the national examination, and two common in applicants from abroad.
    entry_rules: {
      exams: [
        {
          exam: 'ethiopia_esslce',
          subjects: [
            { any_of: ['mathematics'], min_grade: '60' },
            { any_of: ['physics'], min_grade: '50' },
          ],
          min_aggregate: 350,
        },
        {
          exam: 'waec_wassce',
          min_standing: { standing: 'credit', count: 5 },
          subjects: [
            { any_of: ['english_language'], min_grade: 'C6' },
            { any_of: ['mathematics', 'further_mathematics'], min_grade: 'B3' },
            { any_of: ['physics'], min_grade: 'C6' },
          ],
          min_aggregate: 24,
          max_sittings: 2,
        },
        {
          exam: 'knec_kcse',
          subjects: [
            { any_of: ['mathematics'], min_grade: 'C+' },
            { any_of: ['physics'], min_grade: 'C+' },
          ],
          min_class: 'C+',
        },
      ],
    },
    seats: 120,
    campuses: ['kilinto'],
  },
  {
    name: 'BSc Electrical and Computer Engineering',
    level: 'undergraduate',
    field: 'engineering',
    duration_months: 60,
    language: 'en',
    tuition_amount: 1900,
    tuition_currency: 'USD',
    requirements: '',
    entry_rules: {
      exams: [
        {
          exam: 'ethiopia_esslce',
          subjects: [
            { any_of: ['mathematics'], min_grade: '60' },
            { any_of: ['physics'], min_grade: '55' },
            { any_of: ['chemistry'], min_grade: '50' },
          ],
          min_aggregate: 350,
        },
        {
          exam: 'waec_wassce',
          min_standing: { standing: 'credit', count: 5 },
          subjects: [
            { any_of: ['mathematics', 'further_mathematics'], min_grade: 'C6' },
            { any_of: ['physics'], min_grade: 'C6' },
            { any_of: ['chemistry'], min_grade: 'C6' },
          ],
          min_aggregate: 24,
        },
        {
          exam: 'neco_ssce',
          min_standing: { standing: 'credit', count: 5 },
          subjects: [
            { any_of: ['mathematics', 'further_mathematics'], min_grade: 'C6' },
            { any_of: ['physics'], min_grade: 'C6' },
          ],
        },
        {
          exam: 'knec_kcse',
          subjects: [
            { any_of: ['mathematics'], min_grade: 'C+' },
            { any_of: ['physics'], min_grade: 'C' },
          ],
          min_class: 'C+',
        },
        { exam: 'baccalaureat', subjects: [{ any_of: ['mathematics'], min_grade: '12' }], min_aggregate: 12 },
        {
          exam: 'za_nsc',
          subjects: [
            { any_of: ['mathematics'], min_grade: '5' },
            { any_of: ['physical_sciences'], min_grade: '4' },
          ],
          min_aggregate: 30,
        },
        {
          exam: 'rwanda_alevel',
          min_standing: { standing: 'principal', count: 2 },
          subjects: [{ any_of: ['mathematics'], min_grade: 'C' }],
          min_aggregate: 10,
        },
      ],
    },
    seats: 150,
    campuses: ['kilinto'],
  },
  {
    name: 'BSc Applied Chemistry',
    level: 'undergraduate',
    field: 'natural_sciences',
    duration_months: 48,
    language: 'en',
    tuition_amount: 1700,
    tuition_currency: 'USD',
    requirements: '',
    entry_rules: {
      exams: [
        {
          exam: 'waec_wassce',
          min_standing: { standing: 'credit', count: 5 },
          subjects: [
            { any_of: ['chemistry'], min_grade: 'C6' },
            { any_of: ['biology'], min_grade: 'C6' },
          ],
        },
        {
          exam: 'knec_kcse',
          subjects: [
            { any_of: ['chemistry'], min_grade: 'C+' },
            { any_of: ['biology'], min_grade: 'C' },
          ],
          min_class: 'C',
        },
        {
          exam: 'ethiopia_esslce',
          subjects: [
            { any_of: ['chemistry'], min_grade: '55' },
            { any_of: ['biology'], min_grade: '50' },
          ],
        },
        { exam: 'baccalaureat', subjects: [], min_aggregate: 11 },
        {
          exam: 'rwanda_alevel',
          min_standing: { standing: 'principal', count: 2 },
          subjects: [{ any_of: ['chemistry'], min_grade: 'D' }],
        },
        {
          exam: 'necta_csee',
          min_standing: { standing: 'credit', count: 4 },
          subjects: [{ any_of: ['chemistry'], min_grade: 'C' }],
        },
      ],
    },
    seats: 60,
    campuses: ['kilinto', 'bole'],
  },
  {
    name: 'MSc Artificial Intelligence',
    level: 'graduate',
    field: 'technology',
    duration_months: 24,
    language: 'en',
    tuition_amount: 2600,
    tuition_currency: 'USD',
    requirements:
      'A bachelor’s degree in computer science, software engineering or mathematics, with a CGPA of 2.75 or more.',
    entry_rules: { exams: [] },
    seats: 30,
    campuses: ['bole'],
  },
  {
    name: 'MSc Environmental Engineering',
    level: 'graduate',
    field: 'engineering',
    duration_months: 24,
    language: 'en',
    tuition_amount: 2400,
    tuition_currency: 'USD',
    requirements: 'A bachelor’s degree in civil, chemical or environmental engineering.',
    entry_rules: { exams: [] },
    seats: null,
    campuses: ['kilinto', 'bole'],
  },
];

export const DEMO_FORM_NAME = 'AASTU application 2026/27';

export const DEMO_FORM_SECTIONS: FormSection[] = [
  {
    id: 'motivation',
    order: 0,
    title: { en: 'Your programme choice', fr: 'Votre choix de programme', rw: 'Isomo wahisemo' },
    description: {
      en: 'Tell us why you chose this programme.',
      fr: 'Dites-nous pourquoi vous avez choisi ce programme.',
      rw: 'Tubwire impamvu wahisemo iri somo.',
    },
    questions: [
      {
        id: 'why_programme',
        order: 0,
        type: 'long_text',
        label: {
          en: 'Why do you want to study this programme?',
          fr: 'Pourquoi voulez-vous suivre ce programme ?',
          rw: 'Kuki ushaka kwiga iri somo?',
        },
        help: { en: 'At most 300 words.', fr: '300 mots au plus.', rw: 'Amagambo atarenze 300.' },
        required: true,
        word_limit: 300,
      },
      {
        id: 'heard_from',
        order: 1,
        type: 'single_choice',
        label: {
          en: 'How did you hear about AASTU?',
          fr: 'Comment avez-vous connu l’AASTU ?',
          rw: 'Wamenye AASTU ute?',
        },
        help: {},
        required: false,
        options: [
          { id: 'school', label: { en: 'My school', fr: 'Mon école', rw: 'Ishuri ryanjye' } },
          {
            id: 'friend',
            label: { en: 'A friend or relative', fr: 'Un ami ou un parent', rw: 'Inshuti cyangwa umuvandimwe' },
          },
          { id: 'social', label: { en: 'Social media', fr: 'Réseaux sociaux', rw: 'Imbuga nkoranyambaga' } },
          { id: 'kaminuza', label: { en: 'Kaminuza', fr: 'Kaminuza', rw: 'Kaminuza' } },
        ],
      },
    ],
  },
  {
    id: 'academics',
    order: 1,
    title: { en: 'Academic background', fr: 'Parcours scolaire', rw: 'Amashuri wize' },
    description: {},
    questions: [
      {
        id: 'grade_average',
        order: 0,
        type: 'number',
        label: {
          en: 'Final secondary school average (%)',
          fr: 'Moyenne finale du secondaire (%)',
          rw: 'Amanota yawe ya nyuma mu mashuri yisumbuye (%)',
        },
        help: {},
        required: true,
        min: 0,
        max: 100,
      },
      {
        id: 'completed_on',
        order: 1,
        type: 'date',
        label: {
          en: 'When did you complete secondary school?',
          fr: 'Quand avez-vous terminé le secondaire ?',
          rw: 'Warangije amashuri yisumbuye ryari?',
        },
        help: {},
        required: true,
      },
      {
        id: 'school_country',
        order: 2,
        type: 'country',
        label: {
          en: 'Country where you completed secondary school',
          fr: 'Pays où vous avez terminé le secondaire',
          rw: 'Igihugu warangirijemo amashuri yisumbuye',
        },
        help: {},
        required: true,
        profile_field: 'school_country',
      },
    ],
  },
  {
    id: 'documents',
    order: 2,
    title: { en: 'Documents', fr: 'Documents', rw: 'Inyandiko' },
    description: {
      en: 'Choose documents from your profile.',
      fr: 'Choisissez des documents de votre profil.',
      rw: 'Hitamo inyandiko ziri mu mwirondoro wawe.',
    },
    questions: [
      {
        id: 'transcript',
        order: 0,
        type: 'file',
        label: { en: 'Academic transcript', fr: 'Relevé de notes', rw: 'Icyemezo cy’amanota' },
        help: {},
        required: true,
        document_type: 'transcript',
      },
      {
        id: 'passport',
        order: 1,
        type: 'file',
        label: {
          en: 'Passport or national ID',
          fr: 'Passeport ou carte d’identité',
          rw: 'Pasiporo cyangwa indangamuntu',
        },
        help: {},
        required: true,
        document_type: 'passport',
      },
      {
        id: 'recommendation',
        order: 2,
        type: 'file',
        label: { en: 'Letter of recommendation', fr: 'Lettre de recommandation', rw: 'Ibaruwa y’ubuhamya' },
        help: {},
        required: false,
        document_type: 'recommendation_letter',
      },
    ],
  },
  {
    id: 'more',
    order: 3,
    title: { en: 'More about you', fr: 'Plus sur vous', rw: 'Ibindi bikwerekeye' },
    description: {},
    questions: [
      {
        id: 'activities',
        order: 0,
        type: 'multiple_choice',
        label: {
          en: 'Which activities have you taken part in?',
          fr: 'À quelles activités avez-vous participé ?',
          rw: 'Ni ibihe bikorwa wagizemo uruhare?',
        },
        help: {},
        required: false,
        options: [
          { id: 'sports', label: { en: 'Sports', fr: 'Sport', rw: 'Imikino' } },
          { id: 'science_club', label: { en: 'Science club', fr: 'Club scientifique', rw: 'Ihuriro ry’ubumenyi' } },
          { id: 'volunteering', label: { en: 'Volunteering', fr: 'Bénévolat', rw: 'Ibikorwa by’ubukorerabushake' } },
          { id: 'arts', label: { en: 'Music or arts', fr: 'Musique ou arts', rw: 'Umuziki cyangwa ubuhanzi' } },
        ],
      },
      {
        id: 'accommodation',
        order: 1,
        type: 'yes_no',
        label: {
          en: 'Do you need accommodation on campus?',
          fr: 'Avez-vous besoin d’un logement sur le campus ?',
          rw: 'Ukeneye icumbi mu kigo?',
        },
        help: {},
        required: true,
      },
      {
        id: 'emergency_name',
        order: 2,
        type: 'short_text',
        label: {
          en: 'Emergency contact name',
          fr: 'Personne à contacter en cas d’urgence',
          rw: 'Uwo guhamagara habaye ikibazo',
        },
        help: {},
        required: true,
      },
      {
        id: 'emergency_phone',
        order: 3,
        type: 'phone',
        label: {
          en: 'Emergency contact phone',
          fr: 'Téléphone de la personne à contacter',
          rw: 'Telefoni y’uwo guhamagara',
        },
        help: {},
        required: true,
      },
      {
        id: 'own_phone',
        order: 4,
        type: 'phone',
        label: { en: 'Your phone number', fr: 'Votre numéro de téléphone', rw: 'Nimero yawe ya telefoni' },
        help: {},
        required: false,
        profile_field: 'phone',
      },
      {
        id: 'nationality',
        order: 5,
        type: 'country',
        label: { en: 'Nationality', fr: 'Nationalité', rw: 'Ubwenegihugu' },
        help: {},
        required: false,
        profile_field: 'nationality',
      },
      {
        id: 'references',
        order: 6,
        type: 'referees',
        label: { en: 'Your referees', fr: 'Vos référents', rw: 'Abatangabuhamya bawe' },
        help: {
          en: 'A teacher or counsellor who knows your work. Their letters may arrive after you submit.',
          fr: 'Un enseignant ou un conseiller qui connaît votre travail. Leurs lettres peuvent arriver après l’envoi.',
          rw: 'Mwarimu cyangwa umujyanama uzi imikorere yawe. Amabaruwa yabo ashobora kugera nyuma yo kohereza.',
        },
        required: false,
        count: 2,
        kinds: ['teacher', 'counsellor'],
        submit_before_letters: true,
        prompts: [
          {
            en: 'How long, and in what role, have you known the applicant?',
            fr: 'Depuis combien de temps, et à quel titre, connaissez-vous le candidat ?',
            rw: 'Umaze igihe kingana iki uzi uyu musabe, kandi umuzi mu buhe buryo?',
          },
        ],
      },
    ],
  },
  {
    id: 'declaration',
    order: 4,
    title: { en: 'Declaration', fr: 'Déclaration', rw: 'Icyemezo' },
    description: {},
    questions: [
      {
        id: 'accurate',
        order: 0,
        type: 'yes_no',
        label: {
          en: 'I confirm that the information I gave is complete and accurate.',
          fr: 'Je confirme que les informations fournies sont complètes et exactes.',
          rw: 'Ndemeza ko amakuru natanze yuzuye kandi ari ukuri.',
        },
        help: {},
        required: true,
      },
    ],
  },
];
