// The last snapshots received, kept so that the app opens with no network and says how
// old they are.
export function remember(key, value) {
  localStorage.setItem(`snap:${key}`, JSON.stringify({ value, savedAt: Date.now() }));
}

export function recall(key) {
  try {
    return JSON.parse(localStorage.getItem(`snap:${key}`));
  } catch {
    return null;
  }
}
