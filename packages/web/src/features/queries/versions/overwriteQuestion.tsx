// The question a save refused as a conflict asks (409: someone saved the query meanwhile):
// Overwrite, Cancel, and now "Compare with the saved version" (issue 29), which opens the diff of
// the user's text against the saved one.
import { App, Button } from "antd";

type ModalApi = ReturnType<typeof App.useApp>["modal"];

export const CONFLICT_MESSAGE = "It seems like the query has been modified by another user.";

export interface OverwriteQuestion {
  onOverwrite: () => void;
  onCompare: () => void;
  afterClose: () => void;
}

export function askOverwrite(modal: ModalApi, question: OverwriteQuestion): void {
  const dialog = modal.confirm({
    title: "Overwrite Query",
    content: `${CONFLICT_MESSAGE} Are you sure you want to overwrite the query with your version?`,
    okText: "Overwrite",
    okButtonProps: { danger: true },
    width: 520,
    onOk: question.onOverwrite,
    afterClose: question.afterClose,
    footer: (_, { OkBtn, CancelBtn }) => (
      <div
        style={{
          display: "flex",
          flexWrap: "wrap",
          justifyContent: "flex-end",
          gap: 8,
          marginTop: 12,
        }}
      >
        <Button
          onClick={() => {
            dialog.destroy();
            question.onCompare();
          }}
          data-testid="compare-with-saved"
        >
          Compare with the saved version
        </Button>
        <CancelBtn />
        <OkBtn />
      </div>
    ),
  });
}
