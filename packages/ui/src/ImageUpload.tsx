import { useState } from 'react';
import { Button, Upload, type UploadFile, type UploadProps } from 'antd';
import { useFeedback } from './feedback';
import { IMAGE_MIME_TYPES, MESSAGES, problemMessage } from '@dme/contracts/browser';

/** True for the image types the shop accepts (the server checks the content again). */
export function isAcceptedImage(file: { type?: string }): boolean {
  return (IMAGE_MIME_TYPES as readonly string[]).includes(file.type ?? '');
}

/** POST /api/uploads (multipart field `image`); resolves the stored image path, rejects with the server's message. */
export async function uploadImage(file: Blob, signal?: AbortSignal): Promise<string> {
  const body = new FormData();
  body.append('image', file);
  const res = await fetch('/api/uploads', { method: 'POST', body, credentials: 'same-origin', signal });
  const data: unknown = await res.json().catch(() => undefined);
  if (!res.ok) throw new Error(problemMessage(data, res.status === 415 ? MESSAGES.upload.onlyJpgPng : 'The image could not be uploaded.'));
  const path = (data as { imagePath?: unknown } | undefined)?.imagePath;
  if (typeof path !== 'string') throw new Error('The image could not be uploaded.');
  return path;
}

const customRequest: UploadProps['customRequest'] = ({ file, onSuccess, onError }) => {
  const ctrl = new AbortController();
  uploadImage(file as Blob, ctrl.signal).then(
    (imagePath) => onSuccess?.({ imagePath }),
    (err: unknown) => onError?.(err instanceof Error ? err : new Error(String(err))),
  );
  return { abort: () => ctrl.abort() };
};

/** The label of an image the form starts with: its stored name is a hash, not the user's file name. */
export const CURRENT_IMAGE_LABEL = 'Current image';

/** The list entry of a stored image: a thumbnail with a neutral label (issue 13). */
const storedImage = (path: string): UploadFile => ({ uid: 'current', name: CURRENT_IMAGE_LABEL, status: 'done', url: path, thumbUrl: path });

/**
 * One JPG or PNG, uploaded at once to /api/uploads; the form value is the returned image path.
 * Anything else is refused before upload with 'You can only upload JPG or PNG file!'. An image the
 * form starts with (editing) shows as a thumbnail labelled 'Current image'; a file just uploaded
 * keeps the user's own file name.
 */
export function ImageUpload({ value, onChange, id }: { value?: string; onChange?: (path: string | undefined) => void; id?: string }) {
  const { notify } = useFeedback();
  const [files, setFiles] = useState<UploadFile[]>(() => (value ? [storedImage(value)] : []));
  // The form set or reset the value from outside (e.g. form.resetFields or setFieldsValue): follow it.
  const [seen, setSeen] = useState(value);
  if (value !== seen) {
    setSeen(value);
    const shown = files[0];
    if (!value) {
      if (shown?.status === 'done') setFiles([]);
    } else if (shown?.url !== value) setFiles([storedImage(value)]);
  }

  return (
    <Upload
      id={id}
      name="image"
      accept="image/png,image/jpeg"
      listType="picture"
      maxCount={1}
      fileList={files}
      customRequest={customRequest}
      beforeUpload={(file) => {
        if (!isAcceptedImage(file)) {
          notify.toastError(MESSAGES.upload.onlyJpgPng);
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
          notify.toastError(file.error instanceof Error ? file.error.message : MESSAGES.upload.onlyJpgPng);
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
