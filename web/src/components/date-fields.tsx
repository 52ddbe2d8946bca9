/**
 * Date and date-time inputs in the interface's language (issue 14: the native inputs followed the
 * browser's locale, so an English browser showed mm/dd/yyyy beside pt's dd/mm/yyyy tables). MUI X
 * pickers on date-fns with the same locale lib/dates.ts formats with: the field's order, the
 * calendar's month and day names and its buttons follow i18n's language, times are 24 h (SPEC 2).
 *
 * The forms keep the values the native inputs gave them: 'yyyy-MM-dd' for a day and
 * 'yyyy-MM-ddTHH:mm' (local time) for a day and time, '' while the field is empty or not a whole
 * date yet, so their rules and requests are unchanged.
 */
import type { TextFieldProps } from '@mui/material/TextField';
import { AdapterDateFns } from '@mui/x-date-pickers/AdapterDateFns';
import { DatePicker } from '@mui/x-date-pickers/DatePicker';
import { DateTimePicker } from '@mui/x-date-pickers/DateTimePicker';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';
import { enUS, esES, ptBR } from '@mui/x-date-pickers/locales';
import { format, isValid, parse } from 'date-fns';
import { type ReactNode, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { dateLocale } from '../lib/dates.ts';

const DAY = 'yyyy-MM-dd';
const DAY_TIME = "yyyy-MM-dd'T'HH:mm";

const pickerTexts = { pt: ptBR, en: enUS, es: esES } as const;

type FieldProps = Pick<TextFieldProps, 'label' | 'name' | 'size' | 'error' | 'helperText' | 'fullWidth' | 'disabled' | 'sx'>;

export interface DateFieldProps extends FieldProps {
  /** 'yyyy-MM-dd' ('yyyy-MM-ddTHH:mm' with time), or '' when empty. */
  value: string;
  onChange: (value: string) => void;
}

function Localized({ children }: { children: ReactNode }) {
  const { i18n } = useTranslation();
  const language = (i18n.resolvedLanguage ?? i18n.language ?? 'es').slice(0, 2) as keyof typeof pickerTexts;
  const texts = (pickerTexts[language] ?? esES).components.MuiLocalizationProvider.defaultProps.localeText;
  return (
    <LocalizationProvider dateAdapter={AdapterDateFns} adapterLocale={dateLocale(language)} localeText={texts}>
      {children}
    </LocalizationProvider>
  );
}

/**
 * The picker's own date (an unfinished one while the user types) beside the form's string: the
 * string follows every complete date, and a new string from the form (reset, another record)
 * replaces the picker's date.
 */
function usePickerValue(value: string, onChange: (value: string) => void, pattern: string) {
  const parseValue = (text: string): Date | null => {
    if (!text) return null;
    const date = parse(text, pattern, new Date());
    return isValid(date) ? date : null;
  };
  const [date, setDate] = useState<Date | null>(() => parseValue(value));
  const reported = useRef(value);
  if (value !== reported.current) {
    reported.current = value;
    setDate(parseValue(value));
  }
  const change = (next: Date | null) => {
    setDate(next);
    const text = next && isValid(next) ? format(next, pattern) : '';
    reported.current = text;
    if (text !== value) onChange(text);
  };
  return [date, change] as const;
}

/** Room for the whole value (31/12/2099, or with 14:05) beside the calendar button, unless the field spans its row. */
const textFieldOf = ({ label, name, size, error, helperText, fullWidth, disabled, sx }: FieldProps, minWidth: number) => ({
  label,
  disabled,
  slotProps: {
    textField: {
      name,
      size,
      error,
      helperText,
      fullWidth,
      sx: [{ minWidth: fullWidth ? undefined : minWidth }, ...(Array.isArray(sx) ? sx : [sx])],
      // The label always sits above the field: its sections (dd/mm/aaaa) show while it is empty.
      slotProps: { inputLabel: { shrink: true } },
    },
  },
});

/** One picker for both fields: the day alone, or the day and a 24-hour time. */
function PickerField({ value, onChange, time, ...field }: DateFieldProps & { time: boolean }) {
  const [date, change] = usePickerValue(value, onChange, time ? DAY_TIME : DAY);
  const shared = { value: date, onChange: change, ...textFieldOf(field, time ? 220 : 170) };
  return (
    <Localized>{time ? <DateTimePicker {...shared} format="P HH:mm" ampm={false} /> : <DatePicker {...shared} format="P" />}</Localized>
  );
}

/** A day in the interface language's order (31/12/2099 in pt and es, 12/31/2099 in en). */
export const DayField = (props: DateFieldProps) => <PickerField {...props} time={false} />;

/** A day and a 24-hour time in the interface language's order (31/12/2099 14:05). */
export const DayTimeField = (props: DateFieldProps) => <PickerField {...props} time />;
