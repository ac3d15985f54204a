import { CloudDownloadOutlined } from '@ant-design/icons';
import { Button, Form } from 'antd';
import { useTranslation } from 'react-i18next';
import { notify } from '../../../../lib/notify';
import { useOidcDiscovery } from '../../api/use-oidc-discovery';

/** Fetches the well-known document through the server and fills the three endpoint fields (not saved yet). */
export function OidcDiscoveryButton() {
  const { t } = useTranslation();
  const form = Form.useFormInstance();
  const discovery = useOidcDiscovery();

  const fetchWellKnown = () => {
    const wellKnown = String(form.getFieldValue('oidc.well_known') ?? '').trim();
    if (!/^https?:\/\/\S+$/i.test(wellKnown)) {
      notify.error(t('setting.system.oidc_well_known_invalid'));
      return;
    }
    discovery.mutate(wellKnown, {
      onSuccess: (endpoints) => {
        form.setFieldsValue({
          'oidc.authorization_endpoint': endpoints.authorization_endpoint ?? '',
          'oidc.token_endpoint': endpoints.token_endpoint ?? '',
          'oidc.user_info_endpoint': endpoints.userinfo_endpoint ?? '',
        });
        notify.success(t('setting.system.oidc_fetched'));
      },
      onError: (error) => notify.error(t('setting.system.oidc_fetch_failed', { reason: error.message })),
    });
  };

  return (
    <Button icon={<CloudDownloadOutlined />} onClick={fetchWellKnown} loading={discovery.isPending}>
      {t('setting.system.oidc_fetch')}
    </Button>
  );
}
