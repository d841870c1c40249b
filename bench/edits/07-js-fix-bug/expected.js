'use strict';

// Client-side table state for the admin "Members" page: filtering,
// sorting and pagination over rows that were fetched in one request.
// The DOM code lives in members-view.js; everything here is pure so it
// can be tested under node without a browser.

const DEFAULT_PAGE_SIZE = 25;
const PAGE_SIZES = [10, 25, 50, 100];

// How many page links to show around the current page before collapsing
// the rest into an ellipsis.
const PAGE_WINDOW = 2;

function createTableState(rows, options = {}) {
  return {
    rows,
    query: '',
    sortKey: options.sortKey || 'name',
    sortDir: options.sortDir || 'asc',
    page: 1,
    pageSize: PAGE_SIZES.includes(options.pageSize) ? options.pageSize : DEFAULT_PAGE_SIZE,
  };
}

function normalize(text) {
  return String(text)
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
}

function matchesQuery(row, query) {
  if (query === '') {
    return true;
  }
  const needle = normalize(query);
  return [row.name, row.email, row.team].some((field) => normalize(field).includes(needle));
}

const COMPARATORS = {
  name: (a, b) => a.name.localeCompare(b.name),
  email: (a, b) => a.email.localeCompare(b.email),
  team: (a, b) => a.team.localeCompare(b.team) || a.name.localeCompare(b.name),
  joined: (a, b) => a.joined - b.joined,
};

function sortRows(rows, key, dir) {
  const compare = COMPARATORS[key];
  if (!compare) {
    throw new Error(`unknown sort key: ${key}`);
  }
  const sign = dir === 'desc' ? -1 : 1;
  // Array.prototype.sort is stable, so equal rows keep their fetch order.
  return [...rows].sort((a, b) => sign * compare(a, b));
}

function pageCount(total, pageSize) {
  if (total === 0) {
    return 1; // an empty table still shows one (empty) page
  }
  return Math.ceil(total / pageSize);
}

function clampPage(page, count) {
  return Math.min(Math.max(1, page), count);
}

function visibleRows(state) {
  const filtered = state.rows.filter((row) => matchesQuery(row, state.query));
  const sorted = sortRows(filtered, state.sortKey, state.sortDir);
  const count = pageCount(sorted.length, state.pageSize);
  const page = clampPage(state.page, count);
  const start = (page - 1) * state.pageSize;
  return {
    rows: sorted.slice(start, start + state.pageSize),
    total: sorted.length,
    page,
    pageCount: count,
  };
}

// Page links for the footer, e.g. [1, '…', 4, 5, 6, 7, 8, '…', 20].
function pageLinks(page, count) {
  const links = [];
  let gap = false;
  for (let p = 1; p <= count; p++) {
    const nearCurrent = Math.abs(p - page) <= PAGE_WINDOW;
    if (p === 1 || p === count || nearCurrent) {
      links.push(p);
      gap = false;
    } else if (!gap) {
      links.push('…');
      gap = true;
    }
  }
  return links;
}

function rangeLabel(view, pageSize) {
  if (view.total === 0) {
    return 'No members';
  }
  const first = (view.page - 1) * pageSize + 1;
  const last = first + view.rows.length - 1;
  return `${first}–${last} of ${view.total}`;
}

// State transitions. Each returns a new state; the view re-renders from it.

function setQuery(state, query) {
  return { ...state, query: query.trim(), page: 1 };
}

function toggleSort(state, key) {
  if (state.sortKey === key) {
    return { ...state, sortDir: state.sortDir === 'asc' ? 'desc' : 'asc' };
  }
  return { ...state, sortKey: key, sortDir: 'asc', page: 1 };
}

function setPageSize(state, pageSize) {
  if (!PAGE_SIZES.includes(pageSize)) {
    return state;
  }
  // Keep the first visible row on screen when the page size changes.
  const firstRow = (state.page - 1) * state.pageSize;
  return { ...state, pageSize, page: Math.floor(firstRow / pageSize) + 1 };
}

function goToPage(state, page) {
  return { ...state, page };
}

function nextPage(state) {
  const view = visibleRows(state);
  return view.page < view.pageCount ? goToPage(state, view.page + 1) : state;
}

function previousPage(state) {
  const view = visibleRows(state);
  return view.page > 1 ? goToPage(state, view.page - 1) : state;
}

function exportCsv(state) {
  const filtered = state.rows.filter((row) => matchesQuery(row, state.query));
  const sorted = sortRows(filtered, state.sortKey, state.sortDir);
  const quote = (value) => `"${String(value).replace(/"/g, '""')}"`;
  const lines = [['name', 'email', 'team', 'joined'].join(',')];
  for (const row of sorted) {
    const joined = new Date(row.joined).toISOString().slice(0, 10);
    lines.push([row.name, row.email, row.team, joined].map(quote).join(','));
  }
  return lines.join('\r\n') + '\r\n';
}

module.exports = {
  PAGE_SIZES,
  createTableState,
  visibleRows,
  pageLinks,
  rangeLabel,
  setQuery,
  toggleSort,
  setPageSize,
  goToPage,
  nextPage,
  previousPage,
  exportCsv,
};
