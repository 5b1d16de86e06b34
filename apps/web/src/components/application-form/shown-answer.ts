import { localized, type ApplicationDocument, type Language, type Question } from '@kaminuza/shared';
import { countryNamer } from '../../lib/countries.ts';

/** An answer as it reads back (to the student, and to staff reviewing it): option labels, Yes/No, the country's and the document's name. */
export function shownAnswer(
  question: Question,
  value: unknown,
  language: Language,
  documents: readonly ApplicationDocument[],
  yesNo: (value: boolean) => string,
  /** How a referees answer (the invited referees' ids) reads: "2 referees invited". */
  referees: (ids: readonly string[]) => string = (ids) => String(ids.length),
): string {
  switch (question.type) {
    case 'single_choice':
    case 'multiple_choice': {
      const ids = Array.isArray(value) ? value : [value];
      return ids
        .map((id) => question.options.find((option) => option.id === id))
        .map((option, i) => (option ? localized(option.label, language) : String(ids[i])))
        .join(', ');
    }
    case 'yes_no':
      return typeof value === 'boolean' ? yesNo(value) : String(value);
    case 'country':
      return typeof value === 'string' ? countryNamer(language)(value) : String(value);
    case 'file':
      return documents.find((document) => document.id === value)?.name ?? String(value);
    case 'referees':
      return referees(Array.isArray(value) ? value.map(String) : []);
    default:
      return String(value);
  }
}
