import { useState, type ChangeEvent } from 'react';
import { theme } from './theme-config';

/*
 * A list's search field with its Search button, of plain elements (issue 27, part 5: antd's
 * Input.Search, with Input, Button and Space.Compact, was 15 KB gzip of the screens that have one).
 * It looks like antd's: the field and the button joined, the shop's colour on focus.
 */
const PRIMARY = theme.token!.colorPrimary!;
const CSS = `
.dme-search{display:inline-flex;max-width:100%;vertical-align:middle}
.dme-search input{flex:1;min-width:0;height:32px;box-sizing:border-box;padding:4px 11px;border:1px solid #d9d9d9;border-right:0;border-radius:8px 0 0 8px;background:#fff;color:rgba(0,0,0,.88);font:inherit;font-size:14px}
.dme-search input::placeholder{color:rgba(0,0,0,.55)}
.dme-search input:hover{border-color:${PRIMARY}}
.dme-search input:focus-visible{outline:2px solid ${PRIMARY};outline-offset:-1px;border-color:${PRIMARY}}
.dme-search button{display:inline-flex;align-items:center;justify-content:center;width:32px;height:32px;padding:0;border:1px solid #d9d9d9;border-radius:0 8px 8px 0;background:#fff;color:rgba(0,0,0,.62);cursor:pointer}
.dme-search button:hover{border-color:${PRIMARY};color:${PRIMARY}}
.dme-search button:focus-visible{outline:2px solid ${PRIMARY};outline-offset:1px}
`;

function SearchIcon() {
  return (
    <svg viewBox="64 64 896 896" width="14" height="14" fill="currentColor" aria-hidden="true" focusable="false">
      <path d="M909.6 854.5L649.9 594.8C690.2 542.7 712 479 712 412c0-80.2-31.3-155.4-87.9-212.1-56.6-56.7-132-87.9-212.1-87.9s-155.5 31.3-212.1 87.9C143.2 256.5 112 331.8 112 412c0 80.1 31.3 155.5 87.9 212.1C256.5 680.8 331.8 712 412 712c67 0 130.6-21.8 182.7-62l259.7 259.6a8.2 8.2 0 0011.6 0l43.6-43.5a8.2 8.2 0 000-11.6zM570.4 570.4C528 612.7 471.8 636 412 636s-116-23.3-158.4-65.6C211.3 528 188 471.8 188 412s23.3-116.1 65.6-158.4C296 211.3 352.2 188 412 188s116.1 23.2 158.4 65.6S636 352.2 636 412s-23.3 116.1-65.6 158.4z" />
    </svg>
  );
}

export interface SearchBoxProps {
  /** The field's accessible name, e.g. "Search payments". */
  label: string;
  placeholder?: string;
  /** The text, when the screen holds it (otherwise the field keeps its own, from `defaultValue`). */
  value?: string;
  defaultValue?: string;
  onChange?: (text: string) => void;
  /** Enter or the Search button; also when the field is emptied (its clear button or the last character removed), to show the whole list again. */
  onSearch: (text: string) => void;
  width?: number;
}

/** A search field (type search: the browser's own clear button) with a Search button. */
export function SearchBox({ label, placeholder, value, defaultValue, onChange, onSearch, width = 300 }: SearchBoxProps) {
  const [own, setOwn] = useState(defaultValue ?? '');
  const text = value ?? own;
  const change = (e: ChangeEvent<HTMLInputElement>) => {
    const next = e.target.value;
    if (value === undefined) setOwn(next);
    onChange?.(next);
    if (next === '' && text !== '') onSearch('');
  };
  return (
    <span className="dme-search" style={{ width }}>
      <style href="dme-search" precedence="dme">
        {CSS}
      </style>
      <input
        type="search"
        aria-label={label}
        placeholder={placeholder}
        value={text}
        onChange={change}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            onSearch(text);
          }
        }}
      />
      <button type="button" aria-label="Search" title="Search" onClick={() => onSearch(text)}>
        <SearchIcon />
      </button>
    </span>
  );
}
