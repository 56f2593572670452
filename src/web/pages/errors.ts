import { html } from '../html.ts';
import type { Page } from '../layout.ts';

export function notFoundPage(message: string): Page {
  return {
    title: 'Not found',
    status: 404,
    main: html`<h1 class="page-title">Not found</h1>
  <p>${message}</p>
  <p><a href="/">Back to all vendors</a></p>`,
  };
}

export function errorPage(status: number, title: string, message: string): Page {
  return {
    title,
    status,
    main: html`<h1 class="page-title">${title}</h1>
  <p>${message}</p>
  <p><a href="/">Back to all vendors</a></p>`,
  };
}
