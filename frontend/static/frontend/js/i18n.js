// The phone texts come from Django's catalogue (/jsi18n/<lang>/, loaded before this
// module); labels of the rules come already translated from the server.
export const lang = document.documentElement.lang || "en";
export const LANGUAGES = [["fr", "Français"], ["es", "Español"], ["en", "English"]];

export function t(text, values) {
  const translated = window.gettext ? window.gettext(text) : text;
  return values ? window.interpolate(translated, values, true) : translated;
}

export function setLanguage(code) {
  document.cookie = `django_language=${code}; path=/; max-age=31536000; samesite=lax`;
  location.reload();
}
