import { CopyOutlined, DownloadOutlined } from '@ant-design/icons';
import { Button, Flex, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { downloadText } from '../../../lib/download';

interface BackupCodesProps {
  codes: string[];
  onCopy: (text: string, successText?: string) => void;
}

/** The backup codes as shown once: a grid to read, copy or save as a text file. */
export function BackupCodes({ codes, onCopy }: BackupCodesProps) {
  const { t } = useTranslation();
  const text = `${codes.join('\n')}\n`;
  return (
    <div className="two-factor-codes" data-testid="two-factor-backup-codes">
      <ol className="two-factor-code-grid">
        {codes.map((code) => (
          <li key={code}>
            <Typography.Text code className="mono-text" data-testid="two-factor-backup-code">
              {code}
            </Typography.Text>
          </li>
        ))}
      </ol>
      <Flex gap={8} wrap>
        <Button size="small" icon={<CopyOutlined />} onClick={() => onCopy(text, t('two_factor.codes_copied'))}>
          {t('two_factor.copy_codes')}
        </Button>
        <Button
          size="small"
          icon={<DownloadOutlined />}
          onClick={() => downloadText(t('two_factor.download_file'), text, 'text/plain')}
        >
          {t('two_factor.download_codes')}
        </Button>
      </Flex>
    </div>
  );
}
