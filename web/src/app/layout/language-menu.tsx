import Translate from '@mui/icons-material/Translate';
import { IconButton, Menu, MenuItem, Tooltip } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { changeLanguage, languages, normaliseLanguage } from '../../i18n/index.ts';

/** pt / en / es, stored as `language` (SPEC 9). */
export function LanguageMenu() {
  const { t, i18n } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const current = normaliseLanguage(i18n.resolvedLanguage);
  return (
    <>
      <Tooltip title={t('layout.language')}>
        <IconButton
          color="inherit"
          onClick={(e) => setAnchor(e.currentTarget)}
          aria-label={t('layout.language')}
          data-testid="language-button"
        >
          <Translate />
        </IconButton>
      </Tooltip>
      <Menu anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)}>
        {languages.map((language) => (
          <MenuItem
            key={language}
            selected={language === current}
            data-testid={`language-${language}`}
            onClick={() => {
              setAnchor(null);
              void changeLanguage(language);
            }}
          >
            {t(`languages.${language}`)}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
