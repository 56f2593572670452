// Signup and login: post the form as JSON with the CSRF token, show errors next
// to the field they concern, go on to `data-next` (a local path) on success.
import { api, errorMessage, scriptReady } from './common.js';

const FIELD_NAMES = { email: 'The email address', password: 'The password' };

/**
 * The API names parameters ("Invalid parameter 'password': is too common …"); the form
 * speaks of its fields instead ("The password is too common …"), docs/web.md "Sign-up and log-in".
 */
function forPeople(message) {
  const m = /^Invalid parameter '([^']+)': (.*)$/.exec(message);
  if (!m) return message;
  const name = m[1].replace(/^body\./, '');
  const text = `${FIELD_NAMES[name] || 'This field'} ${m[2]}`;
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

for (const form of document.querySelectorAll('[data-auth-form]')) {
  const formError = form.querySelector('[data-form-error]');
  const button = form.querySelector('button[type="submit"]');

  const clear = () => {
    formError.hidden = true;
    formError.textContent = '';
    for (const el of form.querySelectorAll('[data-field-error]')) {
      el.hidden = true;
      el.textContent = '';
    }
    for (const input of form.querySelectorAll('input')) input.removeAttribute('aria-invalid');
  };

  const fieldError = (name, text) => {
    const input = form.querySelector(`[name="${name}"]`);
    const slot = form.querySelector(`[data-field-error="${name}"]`);
    if (!input || !slot) return false;
    input.setAttribute('aria-invalid', 'true');
    slot.textContent = text;
    slot.hidden = false;
    input.focus();
    return true;
  };

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    clear();
    const email = form.elements.email.value.trim();
    const password = form.elements.password.value;
    if (!email) return void fieldError('email', 'Enter your email address.');
    if (!password) return void fieldError('password', 'Enter a password.');
    const min = Number(form.elements.password.getAttribute('minlength') || 0);
    if (min && password.length < min) return void fieldError('password', `Use at least ${min} characters.`);
    button.disabled = true;
    const result = await api(form.getAttribute('action'), { method: 'POST', body: { email, password } });
    button.disabled = false;
    if (result.ok) {
      window.location.assign(form.dataset.next || '/account');
      return;
    }
    const parameter = String(result.body?.parameter || '').replace(/^body\./, '');
    const message = forPeople(errorMessage(result));
    if (result.status === 409) {
      fieldError('email', 'An account with this email already exists. Log in instead.');
    } else if (!(parameter && fieldError(parameter, message))) {
      formError.textContent = message;
      formError.hidden = false;
    }
  });
  scriptReady(form);
}
