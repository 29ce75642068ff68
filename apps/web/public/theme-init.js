// Applies the stored theme before first paint so dark mode never flashes light.
(() => {
  try {
    let theme = localStorage.getItem('vite-ui-theme') || 'system';
    if (theme === 'system') theme = matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
    document.documentElement.classList.add(theme);
  } catch (_e) {
    // Storage unavailable: the app applies the theme once it starts.
  }
})();
