/**
 * WCAG 2.3.3: a person whose system asks for reduced motion (vestibular disorders, migraines) gets
 * no animation: spinners, skeleton pulses and the slide and fade of menus, dialogs and toasts end at
 * once. Iterations end after one so an infinite spinner stops instead of spinning invisibly fast, and
 * animationend/transitionend still fire for code that waits on them. Beside CssBaseline's own rules.
 */
export const reducedMotionRules =
  '@media (prefers-reduced-motion: reduce){*,*::before,*::after{animation-duration:0.01ms!important;animation-iteration-count:1!important;transition-duration:0.01ms!important;scroll-behavior:auto!important;}}';
