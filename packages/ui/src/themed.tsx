import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

/**
 * A lazy screen wrapped in antd's ConfigProvider with the shop's theme: the screen's chunk and
 * the theme's are fetched together when it is first shown, so the screens around it (and the
 * first screen of an app) need no antd at all (DESIGN §12). Render inside Suspense and, for
 * useFeedback(), inside FeedbackProvider (or ThemeProvider).
 */
export function themedLazy<P extends object>(load: () => Promise<{ default: ComponentType<P> }>): LazyExoticComponent<ComponentType<P>> {
  return lazy(async () => {
    const [{ default: Screen }, { AntdTheme }] = await Promise.all([load(), import('./antd-theme')]);
    function Themed(props: P) {
      return (
        <AntdTheme>
          <Screen {...props} />
        </AntdTheme>
      );
    }
    return { default: Themed };
  });
}
