import { useState } from 'react';
import { Button, Upload, type UploadFile } from 'antd';
import { useFeedback } from './feedback';
import { IMAGE_MIME_TYPES, MESSAGES, problemMessage } from '@dme/contracts';

/** True for the image types the shop accepts (the server checks the content again). */
export function isAcceptedImage(file: { type?: string }): boolean {
  return (IMAGE_MIME_TYPES as readonly string[]).includes(file.type ?? '');
}

/**
 * One JPG or PNG, uploaded at once to /api/uploads; the form value is the returned image path.
 */
export function ImageUpload({ value, onChange, id }: { value?: string; onChange?: (path: string | undefined) => void; id?: string }) {
  const { notify } = useFeedback();
  const [files, setFiles] = useState<UploadFile[]>(() =>
    value ? [{ uid: 'current', name: value.split('/').pop() ?? 'image', status: 'done', url: value, thumbUrl: value }] : [],
  );

  return (
    <Upload
      id={id}
      name="image"
      action="/api/uploads"
      accept="image/png,image/jpeg"
      listType="picture"
      maxCount={1}
      fileList={files}
      beforeUpload={(file) => {
        if (!isAcceptedImage(file)) {
          notify.error(MESSAGES.upload.onlyJpgPng);
          return Upload.LIST_IGNORE;
        }
        return true;
      }}
      onChange={({ file, fileList }) => {
        setFiles(fileList.slice(-1));
        if (file.status === 'done') {
          const path = (file.response as { imagePath?: string } | undefined)?.imagePath;
          if (path) {
            setFiles([{ ...file, url: path, thumbUrl: path }]);
            onChange?.(path);
          }
        } else if (file.status === 'error') {
          notify.error(problemMessage(file.response, MESSAGES.upload.onlyJpgPng));
          setFiles([]);
          onChange?.(undefined);
        } else if (file.status === 'removed') {
          onChange?.(undefined);
        }
      }}
    >
      <Button>Upload image</Button>
    </Upload>
  );
}
