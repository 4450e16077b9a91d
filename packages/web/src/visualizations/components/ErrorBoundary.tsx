import { Alert } from "antd";
import { Component, type ReactNode } from "react";

interface Props {
  children: ReactNode;
  /** When this changes, a previous error is forgotten and the children render again. */
  resetKey?: unknown;
}

interface State {
  error: Error | null;
  key: unknown;
}

/** Keeps one broken visualization from blanking the page: shows a readable message instead. */
export class VisualizationErrorBoundary extends Component<Props, State> {
  override state: State = { error: null, key: undefined };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    if (props.resetKey !== state.key) return { key: props.resetKey, error: null };
    return null;
  }

  override render() {
    if (this.state.error) {
      return (
        <Alert
          type="error"
          showIcon
          title="This visualization could not be drawn."
          description={this.state.error.message}
        />
      );
    }
    return this.props.children;
  }
}
