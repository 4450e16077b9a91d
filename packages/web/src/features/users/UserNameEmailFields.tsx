// A user's Name and Email form items: the same rules when an admin creates a user and when a
// profile is edited.
import { Form, Input } from "antd";
import { INVALID_EMAIL_MESSAGE, REQUIRED_MESSAGE } from "./messages";

export function UserNameEmailFields({ autoFocus = false }: { autoFocus?: boolean }) {
  return (
    <>
      <Form.Item
        name="name"
        label="Name"
        rules={[{ required: true, whitespace: true, message: REQUIRED_MESSAGE }]}
      >
        <Input autoFocus={autoFocus} />
      </Form.Item>
      <Form.Item
        name="email"
        label="Email"
        rules={[
          { required: true, whitespace: true, message: REQUIRED_MESSAGE },
          { type: "email", message: INVALID_EMAIL_MESSAGE },
        ]}
      >
        <Input type="email" />
      </Form.Item>
    </>
  );
}
