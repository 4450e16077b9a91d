import { UploadOutlined } from "@ant-design/icons";
import { Button, Space, Typography, Upload } from "antd";
import { useState } from "react";
import { readFileAsBase64 } from "./base64File";

interface FileFieldProps {
  id?: string;
  value?: string | null;
  onChange?: (value: string | null) => void;
}

/** A file picker whose value is the chosen file's content in base64. */
export function FileField({ id, value, onChange }: FileFieldProps) {
  const [fileName, setFileName] = useState<string | null>(null);
  return (
    <Space id={id}>
      <Upload
        showUploadList={false}
        beforeUpload={(file) => {
          void readFileAsBase64(file).then((content) => {
            setFileName(file.name);
            onChange?.(content);
          });
          // The content travels in the form's values; nothing is uploaded by itself.
          return false;
        }}
      >
        <Button icon={<UploadOutlined />}>Click to Upload</Button>
      </Upload>
      {fileName ? (
        <Typography.Text>{fileName}</Typography.Text>
      ) : (
        value && <Typography.Text type="secondary">A file is set</Typography.Text>
      )}
    </Space>
  );
}
